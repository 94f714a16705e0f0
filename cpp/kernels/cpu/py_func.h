// Registry of Python callables behind EagerPyFunc (tf.py_function): the bindings register a
// callback per function and get a token; the kernel calls it by token (no Python here).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/tensor.h"

namespace ef {

// Runs the Python function on the op's inputs and returns its outputs (dtypes already checked
// by the callback); throws OpError on a Python exception.
using PyFuncCallback = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

int64_t register_py_func(PyFuncCallback fn);
void unregister_py_func(int64_t token);

}  // namespace ef
