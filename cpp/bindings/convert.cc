// Python <-> tensor conversion: the fast paths in C++, everything else via a Python fallback.
#include "bindings/convert.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "core/errors.h"
#include "eager/context.h"
#include "graph/function.h"
#include "graph/graph.h"
#include "kernels/cpu/cast.h"
#include "ops/registry.h"

namespace ef {

PyTypeObject* g_tensor_type = nullptr;
PyTypeObject* g_eager_tensor_type = nullptr;

namespace {

py::object& fallback() {
  static py::object* f = new py::object();  // leaked: outlives interpreter teardown safely
  return *f;
}

// TF wraps Python ints into every integer dtype (int8(300) == 44, uint32(-1) == 2**32 - 1).
Tensor int_scalar(long long v, DType hint) {
  DType dt = hint;
  if (!(dtype_is_numeric(hint))) {
    dt = (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) ? DType::kInt32
                                                                                                : DType::kInt64;
  }
  Tensor t = TensorImpl::empty(dt, Shape());
  if (dtype_is_integer(dt)) {  // modulo 2**bits, through uint64 (a signed conversion may not wrap)
    EF_DISPATCH_POD(dt, (void)0, *t->data<T>() = static_cast<T>(static_cast<unsigned long long>(v)));
  } else {
    EF_DISPATCH_POD(dt, (void)0, *t->data<T>() = static_cast<T>(v));
  }
  return t;
}

// Graph constants (TF's make_tensor_proto) wrap ints of [-2**63, 2**64) into every integer dtype;
// wider ones raise NumPy's OverflowError.
Tensor graph_wrapped_int(PyObject* o, int overflow, long long x, DType dtype) {
  unsigned long long u = static_cast<unsigned long long>(x);
  if (overflow) {
    u = overflow > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
    if (overflow < 0 || (u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
      PyErr_Clear();
      PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to C long");
      throw py::error_already_set();
    }
  }
  Tensor t = TensorImpl::empty(DType::kUInt64, Shape());
  *t->data<uint64_t>() = u;
  return dtype == DType::kUInt64 ? t : cast_tensor(t, dtype);
}

// TF's eager converter reads uint64 ints with PyLong_AsUnsignedLongLong and returns with its
// OverflowError still set: Python raises a SystemError chained to it.
[[noreturn]] void uint64_overflow(const char* why) {
  PyErr_SetString(PyExc_OverflowError, why);
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyErr_SetString(PyExc_SystemError,
                  "<class 'tensorflow.python.framework.ops.EagerTensor'> returned a result with an exception set");
  PyObject *stype, *svalue, *stb;
  PyErr_Fetch(&stype, &svalue, &stb);
  PyErr_NormalizeException(&stype, &svalue, &stb);
  PyException_SetCause(svalue, value);  // steals value
  Py_INCREF(value);
  PyException_SetContext(svalue, value);  // steals the new reference
  Py_XDECREF(type);
  Py_XDECREF(tb);
  PyErr_Restore(stype, svalue, stb);
  throw py::error_already_set();
}

Tensor float_scalar(double v, DType hint) {
  DType dt = (dtype_is_floating(hint) || dtype_is_complex(hint)) ? hint : DType::kFloat32;
  Tensor t = TensorImpl::empty(dt, Shape());
  EF_DISPATCH_POD(dt, (void)0, *t->data<T>() = static_cast<T>(v));
  return t;
}

// A flat list or tuple of Python ints as an int32/int64 vector (shapes, axes, perms: the lists
// gradient functions and wrappers pass on every call), or null for anything this does not cover
// (empty, nested, other element types, values out of range), which the Python converter handles.
Tensor int_vector(PyObject* o, DType dtype) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  if (n == 0 || n > 64) return nullptr;
  int64_t v[64];
  bool fits32 = true;
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!PyLong_CheckExact(items[i])) return nullptr;  // bool is not exact int
    int overflow = 0;
    v[i] = PyLong_AsLongLongAndOverflow(items[i], &overflow);
    if (overflow) return nullptr;
    fits32 = fits32 && v[i] >= std::numeric_limits<int32_t>::min() && v[i] <= std::numeric_limits<int32_t>::max();
  }
  if (dtype == DType::kInvalid) dtype = fits32 ? DType::kInt32 : DType::kInt64;
  if (dtype == DType::kInt32 && !fits32) return nullptr;
  Tensor t = TensorImpl::empty(dtype, Shape({static_cast<int64_t>(n)}));
  if (dtype == DType::kInt32) {
    for (Py_ssize_t i = 0; i < n; ++i) t->data<int32_t>()[i] = static_cast<int32_t>(v[i]);
  } else {
    std::copy(v, v + n, t->data<int64_t>());
  }
  return t;
}

// The bytes of a Python bytes or str (UTF-8); a str that has no UTF-8 form (a lone surrogate)
// raises ValueError(`unencodable`).
void assign_string(std::string& out, py::handle v, const char* unencodable) {
  char* buf;
  Py_ssize_t n;
  if (PyBytes_Check(v.ptr())) {
    PyBytes_AsStringAndSize(v.ptr(), &buf, &n);
    out.assign(buf, n);
    return;
  }
  const char* utf8 = PyUnicode_AsUTF8AndSize(v.ptr(), &n);
  if (!utf8) {
    PyErr_Clear();
    throw ValueError(unencodable);
  }
  out.assign(utf8, n);
}

Tensor string_scalar(py::handle v) {
  Tensor t = TensorImpl::empty(DType::kString, Shape());
  assign_string(t->data<std::string>()[0], v, "Error converting unicode string while converting Python sequence to Tensor.");
  return t;
}

// ml_dtypes' bfloat16 NumPy dtype (TF's), or None where ml_dtypes is not installed.
py::object& bfloat16_numpy_dtype() {
  static py::object* d = [] {
    auto* o = new py::object(py::none());  // leaked: outlives interpreter teardown safely
    try {
      *o = py::dtype::from_args(py::module_::import("ml_dtypes").attr("bfloat16"));
    } catch (py::error_already_set&) {
    }
    return o;
  }();
  return *d;
}

[[noreturn]] void unsupported_array(const std::string& what) {
  throw ValueError(str_cat("Failed to convert a NumPy array to a Tensor (", what, ")."));
}

}  // namespace

void set_convert_fallback(py::object fn) { fallback() = std::move(fn); }

DType dtype_from_numpy(py::handle np_dtype) {
  py::dtype d = py::reinterpret_borrow<py::dtype>(np_dtype);
  char kind = d.kind();
  ssize_t size = d.itemsize();
  switch (kind) {
    case 'b': return DType::kBool;
    case 'f':
      if (size == 2) return DType::kFloat16;
      if (size == 4) return DType::kFloat32;
      if (size == 8) return DType::kFloat64;
      break;
    case 'i':
      if (size == 1) return DType::kInt8;
      if (size == 2) return DType::kInt16;
      if (size == 4) return DType::kInt32;
      if (size == 8) return DType::kInt64;
      break;
    case 'u':
      if (size == 1) return DType::kUInt8;
      if (size == 2) return DType::kUInt16;
      if (size == 4) return DType::kUInt32;
      if (size == 8) return DType::kUInt64;
      break;
    case 'c':
      if (size == 8) return DType::kComplex64;
      if (size == 16) return DType::kComplex128;
      break;
    case 'S': case 'U': case 'O': return DType::kString;
    // NumPy types TF has no dtype for: TF's messages.
    case 'V':
      if (!bfloat16_numpy_dtype().is_none() && d.equal(bfloat16_numpy_dtype())) return DType::kBFloat16;
      unsupported_array("Unsupported numpy data type");
    case 'M': unsupported_array("Unsupported numpy type: NPY_DATETIME");
    case 'm': unsupported_array("Unsupported numpy type: NPY_TIMEDELTA");
  }
  if (kind == 'f' && size > 8) unsupported_array("Unsupported numpy type: NPY_LONGDOUBLE");
  if (kind == 'c' && size > 16) unsupported_array("Unsupported numpy type: NPY_CLONGDOUBLE");
  throw TypeError(str_cat("Unsupported NumPy dtype for a tensor: ", py::str(np_dtype).cast<std::string>()));
}

py::dtype numpy_dtype(DType t) {
  switch (t) {
    case DType::kFloat32: return py::dtype("float32");
    case DType::kFloat64: return py::dtype("float64");
    case DType::kFloat16: return py::dtype("float16");
    case DType::kInt32: return py::dtype("int32");
    case DType::kInt64: return py::dtype("int64");
    case DType::kInt16: return py::dtype("int16");
    case DType::kInt8: return py::dtype("int8");
    case DType::kUInt8: return py::dtype("uint8");
    case DType::kBool: return py::dtype("bool");
    case DType::kComplex64: return py::dtype("complex64");
    case DType::kUInt16: return py::dtype("uint16");
    case DType::kUInt32: return py::dtype("uint32");
    case DType::kUInt64: return py::dtype("uint64");
    case DType::kComplex128: return py::dtype("complex128");
    case DType::kBFloat16:
      if (bfloat16_numpy_dtype().is_none()) return py::dtype("float32");  // to_numpy widens without ml_dtypes
      return py::reinterpret_borrow<py::dtype>(bfloat16_numpy_dtype());
    case DType::kString: return py::dtype("O");
    default: throw TypeError("invalid dtype");
  }
}

Tensor from_numpy(py::handle obj) {
  py::array arr = py::reinterpret_borrow<py::array>(obj);
  DType dt = dtype_from_numpy(arr.dtype());
  std::vector<int64_t> dims(arr.shape(), arr.shape() + arr.ndim());
  Shape shape(dims);
  if (dt == DType::kString) {
    Tensor t = TensorImpl::empty(dt, shape);
    py::object flat = py::module_::import("numpy").attr("ravel")(arr);
    std::string* out = t->data<std::string>();
    int64_t i = 0;
    for (py::handle item : flat) {
      if (!PyBytes_Check(item.ptr()) && !PyUnicode_Check(item.ptr()))
        unsupported_array(str_cat("Unsupported object type ",
                                  py::type::handle_of(item).attr("__name__").cast<std::string>()));
      assign_string(out[i++], item, "Failed to convert a NumPy array to a Tensor (Unable to convert element to UTF-8).");
    }
    return t;
  }
  // Tensors hold native byte order: a byte-swapped array ('>i4' on x86) is converted, not copied
  // as raw bytes; the same request makes the copy source C-contiguous.
  auto& api = py::detail::npy_api::get();
  py::array c = py::reinterpret_steal<py::array>(api.PyArray_FromAny_(
      arr.ptr(), numpy_dtype(dt).release().ptr(), 0, 0,
      api.NPY_ARRAY_ENSUREARRAY_ | api.NPY_ARRAY_C_CONTIGUOUS_ | api.NPY_ARRAY_FORCECAST_, nullptr));
  if (!c) throw py::error_already_set();
  Tensor t = TensorImpl::empty(dt, shape);
  if (t->nbytes()) std::memcpy(t->raw_data(), c.data(), t->nbytes());
  return t;
}

py::object to_numpy(const Tensor& t) {
  std::vector<ssize_t> shape(t->shape().begin(), t->shape().end());
  // NumPy needs the product of the non-zero dims times the item size to fit in ssize_t, even for
  // an empty array (and pybind11's stride computation would overflow): refuse like TF does.
  const ssize_t item = t->dtype() == DType::kString ? ssize_t(sizeof(PyObject*)) : ssize_t(dtype_size(t->dtype()));
  ssize_t bytes = item;
  for (ssize_t d : shape)
    if (d != 0 && __builtin_mul_overflow(bytes, d, &bytes))
      throw_error(Code::kInvalidArgument, "Failed to create numpy array from tensor of shape ",
                  t->shape().to_list_string(), ". Numpy error: ValueError: array is too big; `arr.size * ",
                  "arr.dtype.itemsize` is larger than the maximum possible size.");
  if (t->dtype() == DType::kString) {
    py::array out(py::dtype("O"), shape);
    auto** objs = reinterpret_cast<PyObject**>(out.mutable_data());
    const std::string* s = t->data<std::string>();
    for (int64_t i = 0; i < t->num_elements(); ++i) {
      PyObject* b = PyBytes_FromStringAndSize(s[i].data(), static_cast<Py_ssize_t>(s[i].size()));
      if (!b) throw py::error_already_set();
      Py_XDECREF(objs[i]);
      objs[i] = b;
    }
    return std::move(out);
  }
  // NumPy has no bfloat16 of its own: without ml_dtypes the values come back as float32 (exact).
  if (t->dtype() == DType::kBFloat16 && bfloat16_numpy_dtype().is_none()) return to_numpy(cast_tensor(t, DType::kFloat32));
  // The capsule keeps the tensor (and so its memory) alive as long as the array lives.
  auto* keep = new Tensor(t);
  py::capsule owner(keep, [](void* p) { delete static_cast<Tensor*>(p); });
  py::array out(numpy_dtype(t->dtype()), shape, {}, t->raw_data(), owner);
  py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(out);
}

namespace {
Tensor convert_value(py::handle v, DType dtype, bool exact);

// While building a graph, a value converted here (a Python number, list, array) is a constant of
// the graph, named after the op input that reads it; an existing eager tensor, by contrast, is
// captured (see graph_execute).
Tensor graph_constant_of(Tensor t) {
  if (Graph* g = thread_context().graph; g && !t->is_symbolic()) return g->output(g->pending_const(t), 0);
  return t;
}
}  // namespace

Tensor to_tensor(py::handle v, DType dtype, bool exact) {
  PyObject* o = v.ptr();
  if (Py_TYPE(o) == g_eager_tensor_type || PyObject_TypeCheck(o, g_tensor_type)) return tensor_of(o);
  return graph_constant_of(convert_value(v, dtype, exact));
}

Tensor int_list_to_tensor(py::handle v, DType dtype) {
  PyObject* o = v.ptr();
  if (!PyList_CheckExact(o) && !PyTuple_CheckExact(o)) return nullptr;
  Tensor t = int_vector(o, dtype);
  return t ? graph_constant_of(std::move(t)) : nullptr;
}

Tensor to_operand(py::handle v, DType dtype, bool exact, const OpDef& op, const char* node_name, size_t input) {
  PyObject* o = v.ptr();
  if (Py_TYPE(o) == g_eager_tensor_type || PyObject_TypeCheck(o, g_tensor_type)) return tensor_of(o);
  Tensor t;
  try {
    t = convert_value(v, dtype, exact);
  } catch (py::error_already_set& e) {
    // TF converts an operator's right operand in its C++ fast path (`+` excepted: Python converts
    // it first), which raises the uint64 OverflowError itself rather than convert's SystemError.
    if (input == 0 || op.name == "AddV2" || !e.matches(PyExc_SystemError)) throw;
    py::object cause = e.value().attr("__cause__");
    if (!py::isinstance(cause, py::handle(PyExc_OverflowError))) throw;
    PyErr_SetObject(PyExc_OverflowError, py::str(cause).ptr());
    throw py::error_already_set();
  }
  Graph* g = thread_context().graph;
  if (!g || t->is_symbolic()) return t;
  const std::string base = node_name && *node_name ? node_name : op.name;
  const std::string prefix = g->scoped("");
  std::string node = g->peek_unique_name(g->scoped(base)).substr(prefix.size());
  std::string arg = input < op.inputs.size() ? op.inputs[input] : "y";
  if (!arg.empty() && arg.back() == '*') arg.pop_back();
  return g->output(g->const_node(t, node + "/" + arg), 0);
}

namespace {

// The message is formatted in Python: str(value) may hold text UTF-8 cannot (a lone surrogate).
[[noreturn]] void cannot_convert(py::handle v, DType dtype) {
  py::str msg = thread_context().graph  // TF's graph constants (make_tensor_proto) word it so
                    ? py::str("Expected {}, but got {} of type '{}'.")
                          .format(dtype_name(dtype), v, py::type::handle_of(v).attr("__name__"))
                    : py::str("Cannot convert {!r} to EagerTensor of dtype {}").format(v, tf_type_string(dtype));
  PyErr_SetObject(PyExc_TypeError, msg.ptr());
  throw py::error_already_set();
}

// TF's eager converter takes a Python bool as bool, int32, int64 or a float dtype only; graph
// constants take it as any number.
bool bool_converts_to(DType dtype) {
  if (!dtype_is_numeric(dtype)) return false;
  return thread_context().graph || dtype == DType::kInt32 || dtype == DType::kInt64 ||
         (dtype_is_floating(dtype) && dtype != DType::kBFloat16);
}

Tensor convert_value(py::handle v, DType dtype, bool exact) {
  PyObject* o = v.ptr();
  const bool any = dtype == DType::kInvalid;
  if (PyBool_Check(o)) {
    if (bool_converts_to(dtype)) return int_scalar(o == Py_True ? 1 : 0, dtype);
    if (exact && !any && dtype != DType::kBool) cannot_convert(v, dtype);
    return TensorImpl::scalar<bool>(o == Py_True);
  }
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (dtype_is_integer(dtype) && thread_context().graph && (overflow || (dtype == DType::kUInt64 && x < 0)))
      return graph_wrapped_int(o, overflow, x, dtype);
    if (dtype == DType::kUInt64 && (overflow || x < 0)) {
      if (overflow < 0 || (!overflow && x < 0)) uint64_overflow("can't convert negative int to unsigned");
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        uint64_overflow("int too big to convert");
      }
      Tensor t = TensorImpl::empty(dtype, Shape());
      *t->data<uint64_t>() = u;
      return t;
    }
    if (overflow) {
      if (dtype_is_floating(dtype) || dtype_is_complex(dtype)) {
        double d = PyLong_AsDouble(o);
        if (!(d == -1.0 && PyErr_Occurred())) return float_scalar(d, dtype);
        PyErr_Clear();
      }
      throw ValueError("Can't convert Python sequence with out-of-range integer to Tensor.");
    }
    if (dtype_is_numeric(dtype)) return int_scalar(x, dtype);
    if (exact && !any) cannot_convert(v, dtype);
    return int_scalar(x, DType::kInvalid);
  }
  if (PyFloat_CheckExact(o)) {
    if (exact && !any && !dtype_is_floating(dtype) && !dtype_is_complex(dtype)) cannot_convert(v, dtype);
    return float_scalar(PyFloat_AS_DOUBLE(o), dtype);
  }
  if (PyComplex_CheckExact(o)) {
    if (exact && !any && !dtype_is_complex(dtype)) cannot_convert(v, dtype);
    Py_complex c = PyComplex_AsCComplex(o);
    if (dtype == DType::kComplex64)
      return TensorImpl::scalar<complex64>(complex64(static_cast<float>(c.real), static_cast<float>(c.imag)));
    return TensorImpl::scalar<complex128>(complex128(c.real, c.imag));  // a Python complex is complex128, as in TF
  }
  if (PyBytes_Check(o) || PyUnicode_Check(o)) {
    if (exact && !any && dtype != DType::kString) cannot_convert(v, dtype);
    return string_scalar(v);
  }
  if (any && py::isinstance<py::array>(v)) return from_numpy(v);
  if ((PyList_CheckExact(o) || PyTuple_CheckExact(o)) && (any || dtype == DType::kInt32 || dtype == DType::kInt64))
    if (Tensor t = int_vector(o, dtype)) return t;
  if (!fallback()) throw TypeError("eagerflow conversion is not initialized");
  py::object r = fallback()(v, any ? py::object(py::none()) : py::object(py::int_(static_cast<int>(dtype))),
                            py::bool_(exact));
  return r.cast<Tensor>();
}

}  // namespace

py::object attr_to_python(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> py::object {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::monostate>) {
          return py::none();
        } else if constexpr (std::is_same_v<X, DType>) {
          return py::int_(static_cast<int>(x));
        } else if constexpr (std::is_same_v<X, Shape>) {
          if (!x.rank_known()) return py::none();
          return py::cast(x.to_vector());
        } else if constexpr (std::is_same_v<X, std::vector<DType>>) {
          py::list l;
          for (DType d : x) l.append(static_cast<int>(d));
          return l;
        } else if constexpr (std::is_same_v<X, std::vector<Shape>>) {
          py::list l;
          for (const Shape& s : x) l.append(s.rank_known() ? py::object(py::cast(s.to_vector())) : py::object(py::none()));
          return l;
        } else {
          return py::cast(x);
        }
      },
      v);
}

const char* attr_field(const AttrValue& v) {
  static const char* const kFields[] = {"none",      "i",         "f",      "b",    "type",
                                        "s",         "list.i",    "list.f", "list.s", "shape",
                                        "tensor",    "func",      "list.type", "list.shape"};
  static_assert(std::variant_size_v<AttrValue> == sizeof(kFields) / sizeof(kFields[0]));
  return kFields[v.index()];
}

AttrKind attr_kind(const AttrValue& v) {
  if (std::holds_alternative<DType>(v)) return AttrKind::kDType;
  if (std::holds_alternative<std::vector<DType>>(v)) return AttrKind::kDTypeList;
  return AttrKind::kOther;
}

}  // namespace ef
