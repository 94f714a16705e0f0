// The eagerflow._core extension module.
#include "bindings/bindings.h"

namespace ef {
void init_py_func(py::module_& m);  // bindings/py_func.cc: tf.py_function, check_numerics
}

PYBIND11_MODULE(_core, m) {
  m.doc() = "eagerflow C++ core: tensors, op registry, eager kernels";
  m.attr("COMPILER_VERSION") = __VERSION__;  // tf.version.COMPILER_VERSION: the compiler of this build
  ef::init_errors(m);
  ef::init_tensor(m);
  ef::init_ops(m);
  ef::init_context(m);
  ef::init_graph(m);
  ef::init_plan(m);
  ef::init_logging(m);
  ef::init_function(m);
  ef::init_py_func(m);
  ef::init_tape(m);
  ef::init_data(m);
  ef::init_io(m);
}
