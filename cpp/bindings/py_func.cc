// Bindings for tf.py_function (registers Python callables that the EagerPyFunc kernel calls, taking
// the GIL here so kernel code stays free of pybind11) and for enable_check_numerics.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "core/errors.h"
#include "eager/check_numerics.h"
#include "kernels/cpu/py_func.h"

namespace ef {
namespace {

// str(tensor) as Python prints it, for check_numerics messages naming eager inputs.
std::string tensor_str(const Tensor& t) {
  py::gil_scoped_acquire gil;
  try {
    return py::str(py::cast(t)).cast<std::string>();
  } catch (py::error_already_set&) {
    PyErr_Clear();
    return "<tensor>";
  }
}

// Keeps the callable alive while registered; after interpreter shutdown it is leaked on purpose.
std::shared_ptr<py::object> hold(py::object fn) {
  return std::shared_ptr<py::object>(new py::object(std::move(fn)), [](py::object* p) {
    if (!Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    delete p;
  });
}

}  // namespace

void init_py_func(py::module_& m) {
  set_tensor_str_hook(tensor_str);
  // fn(list of Tensors) -> list of Tensors (already of the op's Tout dtypes), or a str: the error
  // message of a Python exception, raised as InvalidArgumentError like TF, or a 1-tuple of the
  // message of a StopIteration, raised as OutOfRangeError like TF.
  m.def("register_py_func", [](py::object fn) {
    std::shared_ptr<py::object> f = hold(std::move(fn));
    return register_py_func([f](const std::vector<Tensor>& inputs) {
      py::gil_scoped_acquire gil;
      py::object r;
      try {
        r = (*f)(py::cast(inputs));
      } catch (py::error_already_set& e) {
        if (e.matches(PyExc_KeyboardInterrupt)) throw;  // Ctrl-C in a generator stops the caller, as it is
        std::string msg = e.what();
        PyErr_Clear();
        throw_error(Code::kInvalidArgument, msg);
      }
      if (py::isinstance<py::str>(r)) throw_error(Code::kInvalidArgument, r.cast<std::string>());
      if (py::isinstance<py::tuple>(r)) throw_error(Code::kOutOfRange, r[py::int_(0)].cast<std::string>());
      return r.cast<std::vector<Tensor>>();
    });
  });
  m.def("unregister_py_func", &unregister_py_func);
  m.def("set_check_numerics", &set_check_numerics);
  m.def("check_numerics_enabled", &check_numerics_enabled);
}

}  // namespace ef
