// tf.data's tie to Python: pipeline waits (prefetch buffers, iterator locks, joins) release the
// GIL, so pipeline threads that run Python (a py_function in a map) make progress meanwhile.
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

}  // namespace

void init_data(py::module_& m) {
  set_blocking_region_fn(release_gil_while);
  // Registered with atexit by eagerflow.data: pipeline threads stop while Python still runs.
  m.def("cancel_data_pipelines", &cancel_all_pipelines, py::arg("timeout_seconds") = 5.0);
}

}  // namespace ef
