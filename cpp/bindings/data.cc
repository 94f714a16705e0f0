// tf.data's tie to Python: pipeline waits (prefetch buffers, iterator locks, joins) release the
// GIL, so pipeline threads that run Python (a py_function in a map) make progress meanwhile, and
// let a pending Ctrl-C through.
#include "bindings/bindings.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

void release_gil_while(const std::function<void()>& wait) {
  if (Py_IsInitialized() && PyGILState_Check()) {
    py::gil_scoped_release release;
    wait();
  } else {
    wait();
  }
}

unsigned long& main_thread_ident() {
  static unsigned long ident = 0;
  return ident;
}

// Python runs signal handlers on its main thread only, and only when asked: a consumer blocked in
// a pipeline wait asks here, so Ctrl-C raises KeyboardInterrupt instead of waiting for data.
void raise_pending_signal() {
  if (!Py_IsInitialized() || PyThread_get_thread_ident() != main_thread_ident()) return;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

}  // namespace

void init_data(py::module_& m) {
  set_blocking_region_fn(release_gil_while);
  main_thread_ident() = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  set_check_interrupt_fn(raise_pending_signal);
  // Registered with atexit by eagerflow.data: pipeline threads stop while Python still runs.
  m.def("cancel_data_pipelines", &cancel_all_pipelines, py::arg("timeout_seconds") = 5.0);
}

}  // namespace ef
