// The Python Tensor type and its core properties; the hot operators are bound in operators.cc.
// Printing, indexing and the rest live in Python (python/eagerflow/framework/tensor.py) and are
// attached to this class at import.
#include <pybind11/stl.h>

#include <vector>

#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "core/errors.h"
#include "eager/execute.h"
#include "graph/graph.h"

namespace ef {

namespace {

std::vector<py::object>& dtype_objects() {
  static auto* v = new std::vector<py::object>(32);
  return *v;
}

}  // namespace

void init_tensor(py::module_& m) {
  // Plain `type` as metaclass: Python's isinstance(x, tf.Tensor) then takes its C fast path for the
  // subclasses (pybind11's metaclass would send it through a __instancecheck__ call). Tensors have
  // no static properties or Python constructors, which are what pybind11's metaclass adds.
  const py::metaclass meta(reinterpret_cast<PyObject*>(&PyType_Type));
  py::class_<TensorImpl, std::shared_ptr<TensorImpl>> cls(m, "Tensor", meta);
  g_tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  // Their holders, shared_ptrs of member-less subclasses, have shared_ptr<TensorImpl>'s layout:
  // tensor_of and the base's loader read them as the base's.
  py::class_<EagerTensorClass, TensorImpl, std::shared_ptr<EagerTensorClass>> eager(m, "EagerTensor", meta);
  g_eager_tensor_type = reinterpret_cast<PyTypeObject*>(eager.ptr());
  py::class_<SymbolicTensorClass, TensorImpl, std::shared_ptr<SymbolicTensorClass>>(m, "SymbolicTensor", meta);

  m.def("set_dtype_objects", [](py::dict d) {
    for (auto kv : d) dtype_objects()[kv.first.cast<int>()] = py::reinterpret_borrow<py::object>(kv.second);
  });
  m.def("set_convert_fallback", &set_convert_fallback);
  m.def("convert_to_tensor", [](py::handle v, py::object dtype, bool exact) {
    return to_tensor(v, dtype.is_none() ? DType::kInvalid : static_cast<DType>(dtype.cast<int>()), exact);
  }, py::arg("value"), py::arg("dtype") = py::none(), py::arg("exact") = false);
  m.def("int_list_to_tensor", [](py::handle v, py::object dtype) -> py::object {
    Tensor t = int_list_to_tensor(v, dtype.is_none() ? DType::kInvalid : static_cast<DType>(dtype.cast<int>()));
    return t ? py::cast(std::move(t)) : py::none();
  }, py::arg("value"), py::arg("dtype") = py::none());
  // A list of op inputs sharing one dtype (concat, stack): the first tensor's dtype is the hint for
  // the others, else each converts on its own. One call instead of one per element.
  m.def("convert_list", [](py::handle values) {
    DType hint = DType::kInvalid;
    for (py::handle v : values) {
      if (py::isinstance<TensorImpl>(v)) {
        hint = v.cast<const TensorImpl&>().dtype();
        break;
      }
    }
    py::list out;
    for (py::handle v : values)  // tensors pass through as the same objects
      out.append(py::isinstance<TensorImpl>(v) ? py::reinterpret_borrow<py::object>(v) : py::cast(to_tensor(v, hint)));
    return out;
  });
  m.def("from_numpy", [](py::handle a) { return from_numpy(a); });
  m.def("dtype_is_valid", &dtype_is_valid);
  m.def("dtype_name", [](int t) { return dtype_name(static_cast<DType>(t)); });
  m.def("dtype_size", [](int t) { return dtype_size(static_cast<DType>(t)); });

  cls.def_property_readonly("_dtype_enum", [](const TensorImpl& t) { return static_cast<int>(t.dtype()); })
      .def_property_readonly("dtype", [](const TensorImpl& t) { return dtype_objects()[static_cast<int>(t.dtype())]; })
      .def_property_readonly("_shape_tuple", [](const TensorImpl& t) -> py::object {
        if (!t.shape().rank_known()) return py::none();
        py::tuple out(t.rank());
        for (int i = 0; i < t.rank(); ++i) {
          int64_t d = t.shape()[i];
          out[i] = d < 0 ? py::object(py::none()) : py::object(py::int_(d));
        }
        return std::move(out);
      })
      .def_property_readonly("ndim", &TensorImpl::rank)
      .def("_rank", &TensorImpl::rank)
      .def("_num_elements", &TensorImpl::num_elements)
      .def("_numpy", [](const Tensor& t) {
        if (t->is_symbolic()) throw py::attribute_error("'SymbolicTensor' object has no attribute 'numpy'");
        return to_numpy(t);
      })
      .def_property_readonly("_is_symbolic", &TensorImpl::is_symbolic)
      .def_property_readonly("_node_name", [](const TensorImpl& t) -> py::object {
        if (!t.is_symbolic()) return py::none();
        t.node()->graph->settle_pending();
        return py::cast(t.node()->name);
      })
      .def_property_readonly("_graph", [](const TensorImpl& t) -> py::object {
        return t.is_symbolic() ? py::cast(t.graph_ptr()) : py::none();
      })
      .def_property_readonly("value_index", &TensorImpl::output_index)
      .def("_data_ptr", [](const TensorImpl& t) { return reinterpret_cast<uintptr_t>(t.raw_data()); })
      .def("__hash__", [](const TensorImpl&) -> py::int_ {
        throw TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.");
      });
  bind_operators(m, cls);
}

}  // namespace ef
