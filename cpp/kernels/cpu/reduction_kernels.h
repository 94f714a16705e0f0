// Helpers shared by the reduction, arg-reduction and scan CPU kernels.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/dtype.h"
#include "core/shape.h"

namespace ef {

// The identity of max / min: -inf / +inf for floats, the type's extremes otherwise.
template <typename A>
inline A lowest_value() {
  if constexpr (std::is_same_v<A, bool>) return false;
  else if constexpr (std::is_same_v<A, half>) return -Eigen::NumTraits<half>::infinity();
  else if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::lowest();
}
template <typename A>
inline A highest_value() {
  if constexpr (std::is_same_v<A, bool>) return true;
  else if constexpr (std::is_same_v<A, half>) return Eigen::NumTraits<half>::infinity();
  else if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::max();
}

// Views `shape` as [K1, R, K2] around `axis` (R = the axis length).
struct AxisSplit {
  int64_t K1 = 1, R = 1, K2 = 1;
};
inline AxisSplit split_at_axis(const Shape& shape, int axis) {
  AxisSplit s;
  for (int d = 0; d < shape.rank(); ++d) {
    if (d < axis) s.K1 *= shape[d];
    else if (d == axis) s.R = shape[d];
    else s.K2 *= shape[d];
  }
  return s;
}

}  // namespace ef
