// CPU Cumsum/Cumprod along one axis (attrs exclusive, reverse). Integers wrap like TF.
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/reduction_kernels.h"
#include "ops/reduction_util.h"

namespace ef {
namespace {

template <typename A>
using WrapT = std::conditional_t<(sizeof(A) < 4), uint32_t, std::make_unsigned_t<A>>;

template <bool kProd, typename A>
inline A scan_op(A a, A b) {
  if constexpr (std::is_integral_v<A>) {
    return kProd ? static_cast<A>(static_cast<WrapT<A>>(a) * static_cast<WrapT<A>>(b))
                 : static_cast<A>(static_cast<WrapT<A>>(a) + static_cast<WrapT<A>>(b));
  } else {
    return kProd ? a * b : a + b;
  }
}

constexpr int64_t kScanTile = 256;

template <bool kProd, typename T>
void scan_typed(const T* in, T* out, const AxisSplit& s, bool exclusive, bool reverse) {
  // float16 and bfloat16 run in float; 8/16-bit ints in uint32, truncated on store (the same bits as
  // wrapping each step, and it sidesteps a GCC 12 -O3 miscompile of narrow wrapping loops).
  using A = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float,
                               std::conditional_t<std::is_integral_v<T> && (sizeof(T) < 4), uint32_t, T>>;
  const int64_t K1 = s.K1, R = s.R, K2 = s.K2;
  const A init = kProd ? A(1) : A(0);
  if (K2 == 1) {  // contiguous rows: one running value per row
    for_range(K1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const T* src = in + k * R;
        T* dst = out + k * R;
        A acc = init;
        const int64_t step = reverse ? -1 : 1;
        for (int64_t i = 0, r = reverse ? R - 1 : 0; i < R; ++i, r += step) {
          if (exclusive) {
            dst[r] = static_cast<T>(acc);
            acc = scan_op<kProd>(acc, static_cast<A>(src[r]));
          } else {
            acc = scan_op<kProd>(acc, static_cast<A>(src[r]));
            dst[r] = static_cast<T>(acc);
          }
        }
      }
    }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(R, 1)));
    return;
  }
  const int64_t tiles = (K2 + kScanTile - 1) / kScanTile;
  for_range(K1 * tiles, [&](int64_t b, int64_t e) {
    A acc[kScanTile];
    for (int64_t u = b; u < e; ++u) {
      const int64_t k1 = u / tiles, c0 = (u % tiles) * kScanTile, w = std::min(kScanTile, K2 - c0);
      for (int64_t j = 0; j < w; ++j) acc[j] = init;
      for (int64_t i = 0; i < R; ++i) {
        const int64_t r = reverse ? R - 1 - i : i;
        const int64_t off = (k1 * R + r) * K2 + c0;
        const T* src = in + off;
        T* dst = out + off;
        if (exclusive) {
          for (int64_t j = 0; j < w; ++j) {
            dst[j] = static_cast<T>(acc[j]);
            acc[j] = scan_op<kProd>(acc[j], static_cast<A>(src[j]));
          }
        } else {
          for (int64_t j = 0; j < w; ++j) {
            acc[j] = scan_op<kProd>(acc[j], static_cast<A>(src[j]));
            dst[j] = static_cast<T>(acc[j]);
          }
        }
      }
    }
  }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(R * std::min(K2, kScanTile), 1)));
}

template <bool kProd>
void scan_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_type(c.op, x.dtype(), kTypesSum);
  check_index_dtype(c.op, c.input(1)->dtype());
  const int axis = scalar_axis(*c.input(1), x.rank(), /*scan=*/true);
  TensorImpl* out = c.allocate_output(0, x.dtype(), x.shape());
  if (out->num_elements() == 0) return;
  const AxisSplit s = split_at_axis(x.shape(), axis);
  const bool exclusive = c.attrs.get<bool>("exclusive", false), reverse = c.attrs.get<bool>("reverse", false);
  switch (x.dtype()) {
    EF_CASES_REAL(scan_typed<kProd, T>(x.data<T>(), out->data<T>(), s, exclusive, reverse))
    EF_CASE(kComplex64, complex64, scan_typed<kProd, T>(x.data<T>(), out->data<T>(), s, exclusive, reverse))
    EF_CASES_RARE(scan_typed<kProd, T>(x.data<T>(), out->data<T>(), s, exclusive, reverse))
    default: break;
  }
}

EF_REGISTER_CPU_KERNEL("Cumsum", scan_kernel<false>);
EF_REGISTER_CPU_KERNEL("Cumprod", scan_kernel<true>);

}  // namespace
}  // namespace ef
