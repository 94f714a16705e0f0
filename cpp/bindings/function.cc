// tf.function's call fast path in C++: one call computes the trace key of the arguments (dtype and
// shape of tensors, values of Python scalars), finds the compiled plan and runs it with the GIL
// released (kept for a few tiny elementwise steps, see Plan::light). Only exact keys are looked up here;
// anything it cannot key (kwargs, dict subclasses, NumPy arrays, ...) or has not seen goes to Python,
// which does the TraceType subtype lookup (function_cache.py) and then adds the key.
#include <optional>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <iterator>
#include <unordered_map>

#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "autodiff/function_grad.h"
#include "bindings/plan_ref.h"
#include "eager/context.h"
#include "eager/execute.h"
#include "graph/function.h"

namespace ef {

namespace {

bool g_run_functions_eagerly = false;  // tf.config.run_functions_eagerly

// Entries per Function kept in C++ (the map is emptied when full; the Python cache still has them).
constexpr size_t kMaxEntries = 4096;

struct CallEntry {
  std::string key;
  PlanRef plan;
  std::vector<Tensor> captures;  // appended to the arguments' tensors (plan feeds order)
  int out_mode = 0;              // 0: returns None, 1: one tensor, 2: packer(list of outputs)
  py::object packer;
  bool exact = true;
  // While a tape records: the call op that also returns the forward values its gradient reads
  // (ConcreteFunction._saving_call_op), set the first time a taped call takes the Python path.
  const OpDef* call_op = nullptr;
  Attrs call_attrs;
  size_t call_outputs = 0;  // the function's own outputs (the rest are the saved values)
};

template <typename T>
void put(std::string& key, T v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// Nesting deeper than this goes to Python (which keys any depth).
constexpr int kMaxDepth = 16;

// The class tf.Variable makes (registered by Python); its instances key like TF's VariableSpec.
PyTypeObject* g_variable_type = nullptr;

// One key being written: its bytes, the tensors to feed (when wanted) and the variables met so far
// (a variable's alias id is the position of its first appearance, as TF's tracing context counts).
struct KeyWriter {
  std::string& key;
  std::vector<Tensor>* feeds;
  std::vector<PyObject*> variables;
};

bool encode_value(PyObject* o, KeyWriter& w, int depth);

bool encode_items(PyObject* const* items, Py_ssize_t n, KeyWriter& w, int depth) {
  put(w.key, static_cast<int64_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!encode_value(items[i], w, depth + 1)) return false;
  return true;
}

// A dict with str keys, in tf.nest's order (sorted keys; UTF-8 byte order is code point order).
bool encode_dict(PyObject* d, KeyWriter& w, int depth) {
  struct Item {
    std::string_view name;
    PyObject* value;
  };
  thread_local std::vector<Item> scratch;
  const size_t base = scratch.size();  // nested dicts share the scratch vector
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  bool ok = true;
  while (ok && PyDict_Next(d, &pos, &k, &v)) {
    Py_ssize_t len = 0;
    const char* s = PyUnicode_CheckExact(k) ? PyUnicode_AsUTF8AndSize(k, &len) : nullptr;
    if (!s) {
      PyErr_Clear();
      ok = false;
      break;
    }
    scratch.push_back({std::string_view(s, static_cast<size_t>(len)), v});
  }
  if (ok) {
    std::sort(scratch.begin() + static_cast<std::ptrdiff_t>(base), scratch.end(),
              [](const Item& a, const Item& b) { return a.name < b.name; });
    w.key.push_back('{');
    put(w.key, static_cast<int64_t>(scratch.size() - base));
    for (size_t i = base; ok && i < scratch.size(); ++i) {
      put(w.key, static_cast<int64_t>(scratch[i].name.size()));
      w.key.append(scratch[i].name);
      ok = encode_value(scratch[i].value, w, depth + 1);
    }
  }
  scratch.resize(base);
  return ok;
}

// Attribute names, interned once (PyObject_GetAttrString would build a new string per lookup).
PyObject* interned(const char* name) { return PyUnicode_InternFromString(name); }

bool has_attr(PyObject* o, PyObject* name) {
  PyObject* a = PyObject_GetAttr(o, name);
  if (!a) {
    PyErr_Clear();
    return false;
  }
  Py_DECREF(a);
  return true;
}

bool is_namedtuple(PyObject* o) {
  if (!PyTuple_Check(o)) return false;
  static PyObject* const kFields = interned("_fields");
  PyObject* fields = PyObject_GetAttr(reinterpret_cast<PyObject*>(Py_TYPE(o)), kFields);
  if (!fields) {
    PyErr_Clear();
    return false;
  }
  const bool ok = PyTuple_Check(fields);
  Py_DECREF(fields);
  return ok;
}

bool encode_tensor(PyObject* o, KeyWriter& w) {
  const Tensor& t = tensor_of(o);
  if (t->is_symbolic()) return false;
  const Shape& s = t->shape();
  w.key.push_back('T');
  w.key.push_back(static_cast<char>(t->dtype()));
  w.key.push_back(static_cast<char>(s.rank()));
  w.key.append(reinterpret_cast<const char*>(s.begin()), sizeof(int64_t) * static_cast<size_t>(s.rank()));
  if (w.feeds) w.feeds->push_back(t);
  return true;
}

// A variable's own key (dtype, declared shape, trainability: fixed when it is made), computed once
// and kept on the variable.
py::object variable_key(PyObject* var) {
  py::handle v(var);
  static PyObject* const kAttr = interned("_fast_call_key");
  if (PyObject* cached = PyObject_GetAttr(var, kAttr)) return py::reinterpret_steal<py::object>(cached);
  PyErr_Clear();
  std::string k;
  k.push_back('V');
  k.push_back(static_cast<char>(v.attr("_dtype").attr("_type_enum").cast<int>()));
  k.push_back(py::bool_(v.attr("_trainable")) ? 't' : 'f');
  py::object dims = v.attr("_shape").attr("_dims");
  if (dims.is_none()) {
    k.push_back('?');
  } else {
    put(k, static_cast<int64_t>(py::len(dims)));
    for (py::handle d : dims) put(k, d.is_none() ? int64_t(-1) : d.cast<int64_t>());
  }
  py::bytes b(k);
  if (PyObject_SetAttr(var, kAttr, b.ptr()) != 0) throw py::error_already_set();
  return std::move(b);
}

bool encode_variable(PyObject* o, KeyWriter& w) {
  static PyObject* const kHandle = interned("_handle");
  PyObject* handle = PyObject_GetAttr(o, kHandle);
  if (!handle) {
    PyErr_Clear();
    return false;
  }
  py::object h = py::reinterpret_steal<py::object>(handle);
  if (Py_TYPE(handle) != g_eager_tensor_type || tensor_of(handle)->is_symbolic()) return false;
  py::object vk;
  try {
    vk = variable_key(o);
  } catch (py::error_already_set&) {
    return false;  // the Python path raises what is wrong with it
  }
  w.key.append(PyBytes_AS_STRING(vk.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(vk.ptr())));
  const auto seen = std::find(w.variables.begin(), w.variables.end(), o);
  put(w.key, static_cast<int32_t>(seen - w.variables.begin()));
  if (seen == w.variables.end()) w.variables.push_back(o);
  if (w.feeds) w.feeds->push_back(tensor_of(handle));
  return true;
}

// An object of a class with __tf_flatten__ / __tf_unflatten__ (TF's CustomNestProtocol): its class,
// its metadata (Python values only) and its components.
bool encode_custom_nest(PyObject* o, KeyWriter& w, int depth) {
  static PyObject* const kFlatten = interned("__tf_flatten__");
  static PyObject* const kUnflatten = interned("__tf_unflatten__");
  static PyObject* const kTracingType = interned("__tf_tracing_type__");
  static PyObject* const kTypeSpec = interned("_type_spec");
  PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(o));
  // Types the Python path keys before it looks for __tf_flatten__ (tracing protocol, composite
  // tensors) go there.
  if (!has_attr(type, kFlatten) || !has_attr(type, kUnflatten) || has_attr(type, kTracingType) ||
      has_attr(type, kTypeSpec))
    return false;
  PyObject* r = PyObject_CallMethodNoArgs(o, kFlatten);
  if (!r) {
    PyErr_Clear();
    return false;  // the Python path raises it
  }
  py::object flat = py::reinterpret_steal<py::object>(r);
  if (!PyTuple_CheckExact(r) || PyTuple_GET_SIZE(r) != 2 || !PyTuple_CheckExact(PyTuple_GET_ITEM(r, 1))) return false;
  // The class keys it as a namedtuple's does (the Python cache's entry holds it).
  w.key.push_back('c');
  put(w.key, reinterpret_cast<uintptr_t>(type));
  std::vector<Tensor> none;
  std::vector<Tensor>* feeds = w.feeds;
  w.feeds = &none;  // metadata is static configuration: a tensor there goes to Python
  const bool meta_ok = encode_value(PyTuple_GET_ITEM(r, 0), w, depth + 1) && none.empty();
  w.feeds = feeds;
  if (!meta_ok) return false;
  PyObject* comps = PyTuple_GET_ITEM(r, 1);
  return encode_items(&PyTuple_GET_ITEM(comps, 0), PyTuple_GET_SIZE(comps), w, depth);
}

// Appends the key of one argument (tensors: dtype and shape; Python scalars and strings: their
// value; tuples, lists, str-keyed dicts and namedtuples: their structure and items; variables: their
// spec and alias id; __tf_flatten__ objects: class, metadata and components) and its tensors in
// tf.nest order. False for anything else: the caller takes the general path.
bool encode_value(PyObject* o, KeyWriter& w, int depth) {
  std::string& key = w.key;
  if (Py_TYPE(o) == g_eager_tensor_type) {
    return encode_tensor(o, w);
  } else if (o == Py_None) {
    key.push_back('N');
  } else if (PyBool_Check(o)) {
    key.push_back(o == Py_True ? 'B' : 'b');
  } else if (PyLong_CheckExact(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return false;
    key.push_back('i');
    put(key, v);
  } else if (PyFloat_CheckExact(o)) {
    key.push_back('f');
    put(key, PyFloat_AS_DOUBLE(o));
  } else if (PyUnicode_CheckExact(o)) {
    Py_ssize_t len = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &len);
    if (!s) {
      PyErr_Clear();
      return false;
    }
    key.push_back('s');
    put(key, static_cast<int64_t>(len));
    key.append(s, static_cast<size_t>(len));
  } else if (Py_TYPE(o) == g_variable_type) {
    return encode_variable(o, w);
  } else if (depth >= kMaxDepth) {
    return false;
  } else if (PyTuple_CheckExact(o)) {
    key.push_back('(');
    return encode_items(&PyTuple_GET_ITEM(o, 0), PyTuple_GET_SIZE(o), w, depth);
  } else if (PyList_CheckExact(o)) {
    key.push_back('[');
    return encode_items(PySequence_Fast_ITEMS(o), PyList_GET_SIZE(o), w, depth);
  } else if (PyDict_CheckExact(o)) {
    return encode_dict(o, w, depth);
  } else if (is_namedtuple(o)) {
    // The class itself keys it: the Python cache's entry holds the class, and any change there
    // empties this cache, so the address cannot be reused by another class while the key lives.
    key.push_back('n');
    put(key, reinterpret_cast<uintptr_t>(Py_TYPE(o)));
    return encode_items(&PyTuple_GET_ITEM(o, 0), PyTuple_GET_SIZE(o), w, depth);
  } else if (!PyType_Check(o) && !PyTuple_Check(o) && !PyList_Check(o) && !PyDict_Check(o)) {
    return encode_custom_nest(o, w, depth);
  } else {
    return false;
  }
  return true;
}

// Appends the key of `args` to `key` and their tensors to `feeds` (when given).
bool encode_args(PyObject* args, std::string& key, std::vector<Tensor>* feeds) {
  KeyWriter w{key, feeds, {}};
  return encode_items(&PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args), w, 0);
}

// Per-function gradient helpers (backward functions), keyed by the forward functions and a tag;
// an entry is valid while its functions live (weak references: addresses can be reused).
struct GradCacheEntry {
  std::vector<std::weak_ptr<GraphFunction>> fns;
  py::object value;
};
std::unordered_map<std::string, GradCacheEntry>& grad_cache() {
  static auto* m = new std::unordered_map<std::string, GradCacheEntry>();  // never destroyed (holds Python objects)
  return *m;
}

std::string grad_cache_key(const std::vector<FunctionPtr>& fns, const std::string& tag) {
  std::string k = tag;
  for (const FunctionPtr& f : fns) put(k, reinterpret_cast<uintptr_t>(f.get()));
  return k;
}

py::object grad_cache_get(const std::vector<FunctionPtr>& fns, const std::string& tag) {
  auto& m = grad_cache();
  auto it = m.find(grad_cache_key(fns, tag));
  if (it == m.end()) return py::none();
  for (size_t i = 0; i < fns.size(); ++i) {
    if (it->second.fns[i].lock() != fns[i]) {
      m.erase(it);
      return py::none();
    }
  }
  return it->second.value;
}

void grad_cache_set(const std::vector<FunctionPtr>& fns, const std::string& tag, py::object value) {
  auto& m = grad_cache();
  if (m.size() > 4096) {  // drop entries whose functions are gone
    for (auto it = m.begin(); it != m.end();) {
      bool dead = false;
      for (auto& w : it->second.fns) dead = dead || w.expired();
      it = dead ? m.erase(it) : std::next(it);
    }
  }
  GradCacheEntry e;
  for (const FunctionPtr& f : fns) e.fns.push_back(f);
  e.value = std::move(value);
  m[grad_cache_key(fns, tag)] = std::move(e);
}

class FunctionCache {
 public:
  // Runs the cached plan for `args`, or returns NotImplemented (no entry, eager mode, building a
  // graph: the caller takes the Python path).
  py::object call(const py::tuple& args) {
    py::object miss = py::reinterpret_borrow<py::object>(Py_NotImplemented);
    // A call inside graph building joins the outer graph (Python path).
    const Context& ctx = thread_context();
    if (g_run_functions_eagerly || ctx.graph) return miss;
    thread_local std::string key;  // only used before the plan runs, so re-entry is harmless
    key.clear();
    std::vector<Tensor> feeds;
    feeds.reserve(PyTuple_GET_SIZE(args.ptr()) + 4);
    if (!encode_args(args.ptr(), key, &feeds)) return miss;
    std::shared_ptr<CallEntry> e = find(key);
    if (!e) return miss;
    const bool taped = ctx.tape_depth > 0;
    if (taped && !e->call_op) return miss;  // the Python path sets up the taped call first
    ++hits_;
    feeds.insert(feeds.end(), e->captures.begin(), e->captures.end());
    std::vector<Tensor> out;
    {
      std::optional<py::gil_scoped_release> release;  // small plans keep the GIL: cheaper
      if (!e->plan.plan->light()) release.emplace();
      if (taped) {
        // One tape entry: the call op that also returns the values its gradient reads.
        out = execute(*e->call_op, feeds, e->call_attrs);
        out.resize(e->call_outputs);
      } else {
        out = e->plan.plan->run(std::move(feeds));
      }
    }
    switch (e->out_mode) {
      case 0: return py::none();
      case 1: return py::cast(std::move(out[0]));
      default: return e->packer(py::cast(std::move(out)));
    }
  }

  // Remembers `plan` for calls with arguments like `args`; false when `args` cannot be keyed.
  // `exact`: the plan was traced for exactly this key (else it is the most specific trace the key is
  // a subtype of, which a later, more specific trace may replace: see clear_inexact).
  // `call`: None, or (op type, attrs, number of own outputs) of the taped call (saving values).
  bool add(const py::tuple& args, const PlanRef& plan, std::vector<Tensor> captures, int out_mode,
           py::object packer, bool exact, py::object call) {
    std::string key;
    if (!encode_args(args.ptr(), key, nullptr)) return false;
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      if (!call.is_none() && !it->second->call_op) set_call(*it->second, call);
      return true;
    }
    if (entries_.size() >= kMaxEntries) clear();  // bounded: hot signatures come back on their next call
    auto e = std::make_shared<CallEntry>();
    e->key = key;
    e->plan = plan;
    e->captures = std::move(captures);
    e->out_mode = out_mode;
    e->packer = std::move(packer);
    e->exact = exact;
    if (!call.is_none()) set_call(*e, call);
    entries_.emplace(std::move(key), std::move(e));
    return true;
  }

  static void set_call(CallEntry& e, const py::object& call) {
    auto t = call.cast<py::tuple>();
    e.call_attrs = attrs_from_python(t[1]);
    e.call_outputs = t[2].cast<size_t>();
    e.call_op = &get_op(t[0].cast<std::string>());
  }

  // The key `args` would have (bytes), or None: for tests and debugging.
  py::object key_of(const py::tuple& args) {
    std::string key;
    if (!encode_args(args.ptr(), key, nullptr)) return py::none();
    return py::bytes(key);
  }

  // The tensors a fast call with `args` would feed, in order, or None when `args` cannot be keyed.
  py::object feeds_of(const py::tuple& args) {
    std::string key;
    std::vector<Tensor> feeds;
    if (!encode_args(args.ptr(), key, &feeds)) return py::none();
    return py::cast(feeds);
  }

  void clear() {
    entries_.clear();
    last_.reset();
  }

  // Drops the entries that resolved to a less specific trace (a new trace may now fit them better).
  void clear_inexact() {
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second->exact ? std::next(it) : entries_.erase(it);
    }
    if (last_ && !last_->exact) last_.reset();
  }

  size_t size() const { return entries_.size(); }

  // Hits since the last call (Python counts them as calls without tracing for the retracing warning).
  uint64_t take_hits() {
    uint64_t n = hits_;
    hits_ = 0;
    return n;
  }

 private:
  // Hash lookup, O(1) in the number of signatures; the last hit is checked first (one compare for
  // the common call-the-same-signature loop).
  std::shared_ptr<CallEntry> find(const std::string& key) {
    if (last_ && last_->key == key) return last_;
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    last_ = it->second;
    return last_;
  }

  std::unordered_map<std::string, std::shared_ptr<CallEntry>> entries_;
  std::shared_ptr<CallEntry> last_;
  uint64_t hits_ = 0;
};

}  // namespace

void init_function(py::module_& m) {
  py::class_<FunctionCache>(m, "FunctionCache")
      .def(py::init<>())
      .def("call", &FunctionCache::call)
      .def("add", &FunctionCache::add, py::arg("args"), py::arg("plan"), py::arg("captures"), py::arg("out_mode"),
           py::arg("packer"), py::arg("exact") = true,
           py::arg("call") = py::none())
      .def("key_of", &FunctionCache::key_of)
      .def("feeds_of", &FunctionCache::feeds_of)
      .def("clear", &FunctionCache::clear)
      .def("clear_inexact", &FunctionCache::clear_inexact)
      .def("take_hits", &FunctionCache::take_hits)
      .def("__len__", &FunctionCache::size);
  // Gradients of functional ops (ops/function_grad.py, ops/control_flow_grad.py).
  m.def("inline_function", [](const FunctionPtr& f, const std::vector<Tensor>& args) { return inline_function(*f, args); },
        "Re-executes f's nodes (those its outputs need) through execute(): recorded by tapes.");
  m.def("replay_function", [](const FunctionPtr& f, const std::vector<Tensor>& args) {
    Replay r = replay_function(*f, args);
    return py::make_tuple(r.outputs, r.placeholders, r.endpoints);
  }, "Records f's nodes on the tapes with placeholder outputs (forward values saved, not recomputed).");
  m.def("implicit_resource_inputs", [](const std::vector<FunctionPtr>& fns) {
    Attrs a;
    for (size_t i = 0; i < fns.size(); ++i) a.set("f" + std::to_string(i), fns[i]);
    return implicit_resource_inputs(a);
  });
  m.def("function_grad_cache_get", &grad_cache_get);
  m.def("function_grad_cache_set", &grad_cache_set);
  m.def("register_variable_class", [](py::object cls) {
    g_variable_type = reinterpret_cast<PyTypeObject*>(cls.release().ptr());  // kept alive for the process
  });
  m.def("set_run_functions_eagerly", [](bool v) { g_run_functions_eagerly = v; });
  m.def("functions_run_eagerly", [] { return g_run_functions_eagerly; });
}

}  // namespace ef
