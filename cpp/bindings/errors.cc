// Maps C++ exceptions to Python: OpError codes to the tf.errors classes registered from Python.
#include <map>

#include "bindings/bindings.h"
#include "core/errors.h"

namespace ef {

namespace {
std::map<int, py::object>& error_classes() {
  static auto* m = new std::map<int, py::object>();
  return *m;
}
}  // namespace

void init_errors(py::module_& m) {
  m.def("set_error_classes", [](py::dict classes) {
    for (auto kv : classes) error_classes()[kv.first.cast<int>()] = py::reinterpret_borrow<py::object>(kv.second);
  });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const OpError& e) {
      auto& classes = error_classes();
      auto it = classes.find(static_cast<int>(e.code()));
      if (it == classes.end()) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
        return;
      }
      py::object inst = it->second(py::none(), py::none(), e.what());
      PyErr_SetObject(it->second.ptr(), inst.ptr());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

}  // namespace ef
