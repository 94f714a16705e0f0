// The update step the scatter kernels share: rows of updates combined into rows of an output at
// resolved offsets, duplicates in order. The mode is a template constant, so only its operation is
// compiled for each dtype and there is no switch per element.
#pragma once
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cpu/scatter_nd.h"
#include "kernels/cpu/wrapping.h"
#include "core/errors.h"

namespace ef {

template <typename T>
constexpr bool kScatterComplex = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// Whether mode M has an operation on T: strings and bools are only replaced, complex numbers have
// no order.
template <ScatterMode M, typename T>
constexpr bool scatter_mode_applies() {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) return M == ScatterMode::kUpdate;
  else if constexpr (kScatterComplex<T>) return M != ScatterMode::kMin && M != ScatterMode::kMax;
  else return true;
}

template <ScatterMode M, typename T>
inline void scatter_combine(T& o, const T& v) {
  static_assert(scatter_mode_applies<M, T>());
  if constexpr (M == ScatterMode::kUpdate) {
    o = v;
  } else if constexpr (kScatterComplex<T>) {
    if constexpr (M == ScatterMode::kAdd) o += v;
    else if constexpr (M == ScatterMode::kSub) o -= v;
    else if constexpr (M == ScatterMode::kMul) o *= v;
    else o /= v;
  } else if constexpr (M == ScatterMode::kAdd) {
    o = wrap_add(o, v);
  } else if constexpr (M == ScatterMode::kSub) {
    o = wrap_sub(o, v);
  } else if constexpr (M == ScatterMode::kMul) {
    o = wrap_mul(o, v);
  } else if constexpr (M == ScatterMode::kDiv) {
    if constexpr (std::is_integral_v<T>) {
      EF_INVALID(v != T(0), "Integer division by zero");
      if (std::is_signed_v<T> && v == T(-1)) o = wrap_sub(T(0), o);  // lowest / -1 wraps
      else o = static_cast<T>(o / v);
    } else {
      o = o / v;
    }
  } else if constexpr (M == ScatterMode::kMin) {
    o = v < o ? v : o;  // a select, not a branch
  } else {
    o = v > o ? v : o;
  }
}

// out row rows[i] (x)= updates row i, rows of `inner` elements; `scalar` repeats upd[0] for every
// element.
template <ScatterMode M, typename T>
void scatter_apply_rows(T* out, const T* upd, const std::vector<int64_t>& rows, int64_t inner, bool scalar) {
  const int64_t n = static_cast<int64_t>(rows.size());
  if (inner == 1 && !scalar) {
    for (int64_t i = 0; i < n; ++i) scatter_combine<M>(out[rows[i]], upd[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    T* o = out + rows[i] * inner;
    const T* u = scalar ? upd : upd + i * inner;
    for (int64_t k = 0; k < inner; ++k) scatter_combine<M>(o[k], u[scalar ? 0 : k]);
  }
}

}  // namespace ef
