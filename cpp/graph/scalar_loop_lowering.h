// Lowers a While loop's cond and body graphs into a ScalarLoop (kernels/cpu/scalar_loop.h).
#pragma once
#include <memory>

#include "graph/function.h"
#include "kernels/cpu/scalar_loop.h"

namespace ef {

// Null when the loop does not qualify (see scalar_loop.h). Ignores OptimizerOptions: the caller
// decides whether loops are optimized.
std::shared_ptr<ScalarLoop> compile_scalar_loop(const GraphFunction& cond, const GraphFunction& body);

}  // namespace ef
