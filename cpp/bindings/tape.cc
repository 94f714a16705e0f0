// Tape bindings: _core.Tape (tf.GradientTape's recorder), its entries, the pruned entries and the
// backward walk (autodiff/backward.h) with its Python callbacks, and the C++ gradient registry.
#include <pybind11/stl.h>

#include <unordered_set>

#include "autodiff/backward.h"
#include "autodiff/gradients/registry.h"
#include "autodiff/tape.h"
#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "core/errors.h"
#include "eager/context.h"
#include "graph/function.h"
#include "graph/graph.h"

namespace ef {

namespace {

py::tuple keys_tuple(const std::vector<TensorKey>& keys) {
  py::tuple out(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    out[i] = keys[i] == kNoKey ? py::object(py::none()) : py::object(py::int_(keys[i]));
  }
  return out;
}

// (entry, type, name, inputs, outputs, output keys, input keys, skip, custom): what the Python
// walk and the Python gradient callback take of a pruned entry. An input key is None where that
// input's gradient is not accumulated.
py::tuple entry_tuple(const PrunedEntry& p) {
  const TapeEntry& e = *p.entry;
  const std::string& type = e.op ? e.op->name : e.custom_name;
  py::object custom = e.custom ? *static_cast<py::object*>(e.custom.get()) : py::none();
  return py::make_tuple(p.entry, type, e.node ? e.node->name : type, e.inputs, e.outputs, keys_tuple(p.out_keys),
                        keys_tuple(p.in_keys), py::tuple(py::cast(p.skip)), std::move(custom));
}

// A Python object kept by C++ code that may drop it without the GIL (a tape, a gradient).
std::shared_ptr<void> hold(py::object o) {
  return std::shared_ptr<void>(new py::object(std::move(o)), [](void* p) {
    if (!Py_IsInitialized()) return;  // outliving the interpreter: leak, don't touch Python
    py::gil_scoped_acquire gil;
    delete static_cast<py::object*>(p);
  });
}

Gradient to_gradient(py::handle h) {
  if (h.is_none()) return Gradient();
  if (PyObject_TypeCheck(h.ptr(), g_tensor_type)) return Gradient{h.cast<Tensor>(), nullptr};
  return Gradient{nullptr, hold(py::reinterpret_borrow<py::object>(h))};  // an IndexedSlices
}

py::object from_gradient(const Gradient& g) {
  if (g.dense) return py::cast(g.dense);
  if (g.other) return *static_cast<py::object*>(g.other.get());
  return py::none();
}

py::list gradient_list(const std::vector<Gradient>& gs) {
  py::list out;
  for (const Gradient& g : gs) out.append(from_gradient(g));
  return out;
}

std::vector<Gradient> gradients_from(py::handle seq) {
  std::vector<Gradient> out;
  if (seq.is_none()) return out;
  for (py::handle h : seq) out.push_back(to_gradient(h));
  return out;
}

// Tape.backward: the walk in C++ (autodiff/backward.h). `call(entry_tuple, out_grads)` runs a
// gradient function of the Python registry (or a custom gradient) and returns the input
// gradients (None: a non-differentiable op); `sum(list)` sums gradients that are not all dense.
// The walk runs without the GIL (the kernels of a large model's gradients take most of it); the
// callbacks take it back.
py::dict run_backward(const Tape& tape, const std::vector<TensorKey>& targets, py::handle initial,
                      const std::vector<TensorKey>& sources, py::function call, py::function sum) {
  BackwardCallbacks callbacks;
  callbacks.call = [&call](const PrunedEntry& p, const std::vector<Gradient>& out_grads) {
    py::gil_scoped_acquire gil;
    py::tuple args = entry_tuple(p);
    py::object r = call(args, gradient_list(out_grads));
    return gradients_from(r);
  };
  callbacks.sum = [&sum](const std::vector<Gradient>& lst) {
    py::gil_scoped_acquire gil;
    return to_gradient(sum(gradient_list(lst)));
  };
  std::vector<Gradient> init = gradients_from(initial);
  std::unordered_map<TensorKey, std::vector<Gradient>> grads;
  {
    py::gil_scoped_release release;
    grads = backward(tape, targets, init, sources, callbacks);
  }
  py::dict out;
  for (const auto& kv : grads) out[py::int_(kv.first)] = gradient_list(kv.second);
  return out;
}

// Runs the C++ gradient of `op_type` on a call made outside any tape (the tests compare it with
// the Python function): None when it has none or it is off.
py::object call_native_gradient(const std::string& op_type, const std::vector<Tensor>& inputs,
                                const std::vector<Tensor>& outputs, py::handle attrs, py::handle out_grads,
                                const std::vector<int>& skip) {
  const OpDef& op = get_op(op_type);
  const GradientFn fn = native_gradient(op);
  if (!fn) return py::none();
  Attrs a = attrs_from_python(attrs);
  std::vector<Tensor> grads;
  for (py::handle h : out_grads) grads.push_back(h.is_none() ? Tensor() : h.cast<Tensor>());
  return py::cast(fn(GradientOp{op, inputs, outputs, a, skip}, grads));
}

}  // namespace

void init_tape(py::module_& m) {
  py::class_<TapeEntry, std::shared_ptr<TapeEntry>>(m, "TapeEntry")
      .def_property_readonly("type", [](const TapeEntry& e) { return e.op ? e.op->name : e.custom_name; })
      .def_property_readonly("name", [](const TapeEntry& e) {
        return e.node ? e.node->name : e.op ? e.op->name : e.custom_name;
      })
      .def_readonly("inputs", &TapeEntry::inputs)
      .def_readonly("outputs", &TapeEntry::outputs)
      .def_property_readonly("attr_names", [](const TapeEntry& e) {
        std::vector<std::string> names;
        for (auto& kv : e.attrs.items()) names.push_back(kv.first);
        return names;
      })
      // (AttrKind, value) or None when the call had no such attr.
      .def("attr", [](const TapeEntry& e, const std::string& name) -> py::object {
        const AttrValue* v = e.attrs.find(name);
        if (!v) return py::none();
        return py::make_tuple(static_cast<int>(attr_kind(*v)), attr_to_python(*v));
      })
      .def("__repr__", [](const TapeEntry& e) { return "<TapeEntry " + (e.op ? e.op->name : e.custom_name) + ">"; });

  m.attr("ATTR_DTYPE") = static_cast<int>(AttrKind::kDType);  // the kinds TapeEntry.attr reports
  m.attr("ATTR_DTYPE_LIST") = static_cast<int>(AttrKind::kDTypeList);

  py::class_<Tape, std::shared_ptr<Tape>>(m, "Tape")
      // A tape records the ops of the graph being built when it is created (null: eager ops).
      .def(py::init([](bool persistent, bool watch_accessed_variables) {
             return std::make_shared<Tape>(persistent, watch_accessed_variables, thread_context().graph);
           }),
           py::arg("persistent") = false, py::arg("watch_accessed_variables") = true)
      .def("push", [](std::shared_ptr<Tape> t) { push_tape(std::move(t)); })
      .def("pop", [](Tape& t) { pop_tape(&t); })
      .def("watch", &Tape::watch)
      .def("watching", &Tape::watching)
      .def("num_entries", [](const Tape& t) { return t.entries().size(); })
      .def("entries", [](const Tape& t) { return t.entries(); })
      .def("watched_variables", [](const Tape& t) { return t.watched_variables(); })
      // The backward pass's entries with their keys and skipped inputs: see prune.
      .def("prune", [](const Tape& t, const std::vector<TensorKey>& targets, const std::vector<TensorKey>& sources) {
        py::list out;
        for (const PrunedEntry& p : prune(t, targets, sources)) out.append(entry_tuple(p));
        return out;
      })
      .def_property_readonly("eager", [](const Tape& t) { return t.graph == nullptr; })
      .def("backward", &run_backward);

  // tf.custom_gradient: `outputs` were computed from `inputs` with recording off; their gradient
  // is grad_fn(*output_grads) -> one gradient per input.
  m.def("tape_record_custom", [](const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                                 py::object grad_fn, const std::string& name) {
    record_custom_gradient(inputs, outputs, hold(std::move(grad_fn)), name);
  });
  m.def("tensor_key", [](const Tensor& t) { return tensor_key(*t); });
  m.def("tape_depth", [] { return thread_context().tape_depth; });
  m.def("tape_suspend", &suspend_tapes);
  m.def("tape_resume", &resume_tapes);
  m.def("set_variable_trainable", &set_variable_trainable);
  m.def("native_gradient_types", &native_gradient_types);
  m.def("trainable_dtype", [](int dtype) { return trainable_dtype(static_cast<DType>(dtype)); });
  m.def("set_native_gradient_enabled", &set_native_gradient_enabled);
  m.def("native_gradient", &call_native_gradient, py::arg("op_type"), py::arg("inputs"), py::arg("outputs"),
        py::arg("attrs"), py::arg("out_grads"), py::arg("skip") = std::vector<int>());
}

}  // namespace ef
