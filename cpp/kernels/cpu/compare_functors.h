// The per-element predicates of the comparison ops (ops/binary_op_table.h's EF_COMPARE_OPS), one
// struct per op named as the op: the eager kernels (binary_compare.cc) and the scalar loop's fused
// steps (scalar_fused_steps.cc) share them.
#pragma once
#include <type_traits>

#include "core/dtype.h"

namespace ef {
namespace compare_functors {

// Ordering comparisons are not defined for complex numbers.
template <class T>
constexpr bool kOrdered = !std::is_same_v<T, complex64> && !std::is_same_v<T, complex128>;

struct Less { template <class T, class = std::enable_if_t<kOrdered<T>>> bool operator()(const T& a, const T& b) const { return a < b; } };
struct LessEqual { template <class T, class = std::enable_if_t<kOrdered<T>>> bool operator()(const T& a, const T& b) const { return a <= b; } };
struct Greater { template <class T, class = std::enable_if_t<kOrdered<T>>> bool operator()(const T& a, const T& b) const { return a > b; } };
struct GreaterEqual { template <class T, class = std::enable_if_t<kOrdered<T>>> bool operator()(const T& a, const T& b) const { return a >= b; } };
struct Equal { template <class T> bool operator()(const T& a, const T& b) const { return a == b; } };
struct NotEqual { template <class T> bool operator()(const T& a, const T& b) const { return a != b; } };

}  // namespace compare_functors
}  // namespace ef
