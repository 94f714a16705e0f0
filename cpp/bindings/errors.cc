// Maps C++ exceptions to Python: OpError codes to the tf.errors classes registered from Python,
// TypeError/ValueError to Python's, and anything else to TF's classes, never RuntimeError.
#include <map>
#include <new>
#include <stdexcept>

#include "bindings/bindings.h"
#include "core/errors.h"

namespace ef {

namespace {
std::map<int, py::object>& error_classes() {
  static auto* m = new std::map<int, py::object>();
  return *m;
}
void set_op_error(Code code, const char* what) {
  auto& classes = error_classes();
  auto it = classes.find(static_cast<int>(code));
  if (it == classes.end()) {  // only before eagerflow.framework.errors registered the classes
    PyErr_SetString(PyExc_RuntimeError, what);
    return;
  }
  py::object inst = it->second(py::none(), py::none(), what);
  PyErr_SetObject(it->second.ptr(), inst.ptr());
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
      set_op_error(e.code(), e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const py::cast_error& e) {
      // A Python value a binding could not take: the caller's type error, not a RuntimeError.
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's own Python exceptions (IndexError, StopIteration, ...) as they are
    } catch (const std::bad_alloc&) {
      set_op_error(Code::kResourceExhausted, "OOM: out of memory");
    } catch (const std::length_error& e) {
      set_op_error(Code::kResourceExhausted, str_cat("OOM: ", e.what()).c_str());
    } catch (const std::exception& e) {
      // No C++ library exception reaches Python as RuntimeError/IndexError: it is a bug of ours,
      // which TF reports as InternalError.
      set_op_error(Code::kInternal, e.what());
    }
  });
}

}  // namespace ef
