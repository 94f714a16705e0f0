// Non-finite counts and the enable_check_numerics flag (see numerics.h).
#include "kernels/cpu/numerics.h"

#include <cmath>

#include "core/errors.h"

namespace ef {

std::atomic<bool> g_check_numerics{false};

void set_check_numerics(bool on) { g_check_numerics.store(on, std::memory_order_relaxed); }

namespace {

template <typename T>
void count_into(const TensorImpl& t, NumericCounts& c) {
  const T* p = t.data<T>();
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(static_cast<float>(p[i]));
    if (std::isnan(v)) {
      ++c.nan;
    } else if (std::isinf(v)) {
      if (v > 0) ++c.pos_inf; else ++c.neg_inf;
    }
  }
}

template <>
void count_into<double>(const TensorImpl& t, NumericCounts& c) {
  const double* p = t.data<double>();
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = p[i];
    if (std::isnan(v)) {
      ++c.nan;
    } else if (std::isinf(v)) {
      if (v > 0) ++c.pos_inf; else ++c.neg_inf;
    }
  }
}

}  // namespace

NumericCounts count_non_finite(const TensorImpl& t) {
  NumericCounts c;
  if (t.is_symbolic()) return c;
  EF_DISPATCH_FLOAT(t.dtype(), return c, count_into<T>(t, c));
  return c;
}

std::string non_finite_text(const NumericCounts& c, bool v2) {
  std::string parts;
  auto add = [&](const char* s) { parts += (parts.empty() ? "" : " and ") + std::string(s); };
  if (v2) {
    if (c.neg_inf) add("-Inf");
    if (c.pos_inf) add("+Inf");
  } else if (c.neg_inf || c.pos_inf) {
    add("Inf");
  }
  if (c.nan) add("NaN");
  return str_cat("Tensor had ", parts, " values");
}

}  // namespace ef
