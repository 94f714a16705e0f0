// Tape bindings: _core.Tape (tf.GradientTape's recorder), its entries, and the pruning walk.
#include <pybind11/stl.h>

#include <unordered_set>

#include "autodiff/tape.h"
#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "core/errors.h"
#include "eager/context.h"
#include "graph/function.h"
#include "graph/graph.h"

namespace ef {

namespace {

// TF's backprop_util.IsTrainable: the dtypes whose tensors carry gradients.
bool trainable(DType d) {
  return dtype_is_floating(d) || dtype_is_complex(d) || d == DType::kResource || d == DType::kVariant;
}

py::tuple keys_tuple(const std::vector<Tensor>& ts) {
  py::tuple out(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) out[i] = py::int_(tensor_key(*ts[i]));
  return out;
}

// The entries on some path from a source to a target, last recorded first (the order the
// backward pass visits them). Entries are recorded in execution order, so that order is a
// reverse topological order. Each comes with what the backward pass needs of it, converted
// here once: (entry, type, name, inputs, outputs, output keys, input keys, skip, custom), where
// an input key is None when that input's gradient is not accumulated (a non-trainable dtype, or
// an input no source reaches) and `skip` lists the inputs no source reaches (TF's
// Operation.skip_input_indices), whose gradients nothing will read.
py::list prune(const Tape& tape, const std::vector<TensorKey>& targets, const std::vector<TensorKey>& sources) {
  const auto& entries = tape.entries();
  std::unordered_set<TensorKey> reach(sources.begin(), sources.end());
  std::vector<char> forward(entries.size(), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    for (const Tensor& t : entries[i]->inputs) {
      if (reach.count(tensor_key(*t))) {
        forward[i] = 1;
        break;
      }
    }
    if (forward[i])
      for (const Tensor& t : entries[i]->outputs) reach.insert(tensor_key(*t));
  }
  std::unordered_set<TensorKey> need(targets.begin(), targets.end());
  py::list out;
  for (size_t i = entries.size(); i-- > 0;) {
    if (!forward[i]) continue;
    const TapeEntry& e = *entries[i];
    bool used = false;
    for (const Tensor& t : e.outputs) {
      if (need.count(tensor_key(*t))) {
        used = true;
        break;
      }
    }
    if (!used) continue;
    std::vector<int> skip;
    py::tuple in_keys(e.inputs.size());
    for (size_t j = 0; j < e.inputs.size(); ++j) {
      const TensorKey k = tensor_key(*e.inputs[j]);
      need.insert(k);
      if (!reach.count(k)) {
        skip.push_back(static_cast<int>(j));
        in_keys[j] = py::none();
      } else {
        in_keys[j] = trainable(e.inputs[j]->dtype()) ? py::object(py::int_(k)) : py::none();
      }
    }
    const std::string& type = e.op ? e.op->name : e.custom_name;
    py::object custom = e.custom ? *static_cast<py::object*>(e.custom.get()) : py::none();
    out.append(py::make_tuple(entries[i], type, e.node ? e.node->name : type, e.inputs, e.outputs,
                              keys_tuple(e.outputs), std::move(in_keys), py::tuple(py::cast(skip)),
                              std::move(custom)));
  }
  return out;
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
        return prune(t, targets, sources);
      });

  // tf.custom_gradient: `outputs` were computed from `inputs` with recording off; their gradient
  // is grad_fn(*output_grads) -> one gradient per input.
  m.def("tape_record_custom", [](const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                                 py::object grad_fn, const std::string& name) {
    std::shared_ptr<void> fn(new py::object(std::move(grad_fn)), [](void* p) {
      if (!Py_IsInitialized()) return;  // a tape outliving the interpreter: leak, don't touch Python
      py::gil_scoped_acquire gil;       // the last tape reference may drop on any thread
      delete static_cast<py::object*>(p);
    });
    record_custom_gradient(inputs, outputs, fn, name);
  });
  m.def("tensor_key", [](const Tensor& t) { return tensor_key(*t); });
  m.def("tape_depth", [] { return thread_context().tape_depth; });
  m.def("tape_suspend", &suspend_tapes);
  m.def("tape_resume", &resume_tapes);
  m.def("set_variable_trainable", &set_variable_trainable);
}

}  // namespace ef
