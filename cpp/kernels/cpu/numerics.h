// Finiteness checks below eager: the tf.debugging.enable_check_numerics flag (fast paths that
// skip per-op checks read it) and the non-finite counts of the CheckNumerics kernel and of the
// eager and graph checks.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "core/tensor.h"

namespace ef {

extern std::atomic<bool> g_check_numerics;
inline bool check_numerics_enabled() { return g_check_numerics.load(std::memory_order_relaxed); }
void set_check_numerics(bool on);

// Counts of -Inf, +Inf and NaN elements; false when the tensor is not floating or all finite.
struct NumericCounts {
  int64_t neg_inf = 0, pos_inf = 0, nan = 0;
  bool bad() const { return neg_inf + pos_inf + nan > 0; }
};
NumericCounts count_non_finite(const TensorImpl& t);
// TF's "Tensor had ... values" tail (CheckNumerics v1 form when `v2` is false).
std::string non_finite_text(const NumericCounts& c, bool v2);

}  // namespace ef
