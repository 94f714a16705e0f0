// One init_<area> per binding file; module.cc calls them all.
#pragma once
#include <pybind11/pybind11.h>

#include <memory>

#include "bindings/tensor_types.h"
#include "core/tensor.h"

namespace ef {
namespace py = pybind11;
void init_errors(py::module_& m);
void init_tensor(py::module_& m);
// Tensor's Python operators (bindings/operators.cc), called by init_tensor.
void bind_operators(py::module_& m, py::class_<TensorImpl, std::shared_ptr<TensorImpl>>& cls);
void init_ops(py::module_& m);
void init_context(py::module_& m);
void init_graph(py::module_& m);
void init_plan(py::module_& m);   // compiled plans, optimizer options (bindings/plan.cc)
void init_logging(py::module_& m);
void init_function(py::module_& m);  // tf.function's C++ call path
void init_tape(py::module_& m);      // tf.GradientTape's recorder (bindings/tape.cc)
void init_data(py::module_& m);      // tf.data: pipeline waits release the GIL (bindings/data.cc)
void init_io(py::module_& m);        // checkpoints and event files (bindings/io.cc)
}  // namespace ef
