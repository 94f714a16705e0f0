// Routes PrintV2 output to a Python callback (tf.print writes to sys.stdout / sys.stderr objects,
// so Jupyter and pytest capture it). Plans run with the GIL released: the sink re-acquires it.
#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "core/errors.h"
#include "kernels/cpu/print_sink.h"

namespace ef {
namespace {

// Deliberately leaked: a py::object destroyed after interpreter shutdown would crash.
py::object* g_callback = nullptr;

void python_sink(int stream, const std::string& text) {
  py::gil_scoped_acquire gil;
  if (!g_callback) return;
  try {
    (*g_callback)(stream, py::bytes(text));
  } catch (py::error_already_set& e) {
    std::string msg = e.what();
    e.restore();
    PyErr_Clear();
    throw_error(Code::kInternal, "Printing failed: ", msg);
  }
}

}  // namespace

void init_logging(py::module_& m) {
  // fn(stream, text_bytes) with stream 1 = stdout, 2 = stderr; None restores C++ std::cout/cerr.
  m.def("set_print_callback", [](py::object fn) {
    if (!g_callback) g_callback = new py::object();
    if (fn.is_none()) {
      set_print_sink(PrintSink());
      *g_callback = py::object();
      return;
    }
    *g_callback = std::move(fn);
    set_print_sink(python_sink);
  }, py::arg("fn"));
}

}  // namespace ef
