// Predicate functions of comparison and logical ops on one element (a < b, a && b, !a): the
// same expressions as their eager kernels (binary.cc, unary.cc register them). The scalar loop
// interpreter (scalar_loop.h) runs loop conditions with them.
#pragma once
#include <string>

#include "core/dtype.h"

namespace ef {

// fn(a, b) for an element of dtype `t` (b is unused by unary ops such as LogicalNot).
using PredicateFn = bool (*)(const void* a, const void* b);

void register_predicate(const std::string& op, DType t, PredicateFn fn);
PredicateFn find_predicate(const std::string& op, DType t);  // null when none

}  // namespace ef
