// CPU ArgMax/ArgMin: the first index of the extreme value along one axis. NaNs never win a
// comparison, so they are skipped (TF gives argmax([nan, 1]) == 1); all-NaN rows give 0.
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/reduction_isa.h"
#include "kernels/cpu/reduction_kernels.h"
#include "ops/reduction_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

constexpr int64_t kArgTile = 256;

template <bool kMax, typename T, typename I>
void arg_typed(const T* in, const AxisSplit& s, I* out) {
  using C = std::conditional_t<is_storage_float<T>::value, float, T>;  // compare half and bfloat16 as float
  const int64_t K1 = s.K1, R = s.R, K2 = s.K2;
  const C init = kMax ? lowest_value<C>() : highest_value<C>();
  auto better = [](C v, C best) { return kMax ? v > best : v < best; };
  if (K2 == 1) {
    for_range(K1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const T* p = in + k * R;
        // One vectorized pass (first_extreme_index): float/double in the CPU's ISA copy.
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          if (R >= 64 && R <= INT32_MAX - 256) {  // lane indices stay below INT32_MAX
            out[k] = static_cast<I>(isa_reduce_leaves<T>().first_extreme[kMax](p, R));
            continue;
          }
        } else if constexpr ((sizeof(T) == 4 || sizeof(T) == 8) && std::is_arithmetic_v<T> && std::is_same_v<C, T>) {
          if (R >= 64 && R <= INT32_MAX - 256) {
            out[k] = static_cast<I>(first_extreme_index<kMax>(p, R, init));
            continue;
          }
        }
        // Two passes that vectorize: the extreme value (NaN never wins), then its first index.
        // A scan keeping the first strictly better value gives the same answer, and index 0
        // when nothing beats the initial value.
        C best = init;
        if constexpr (std::is_same_v<C, T> && std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
          bool nan;
          best = extreme_value<kMax>(p, R, init, &nan);
        } else {
          for (int64_t r = 0; r < R; ++r) {
            const C v = static_cast<C>(p[r]);
            best = better(v, best) ? v : best;
          }
        }
        int64_t idx = 0;
        if (best != init) {
          while (static_cast<C>(p[idx]) != best) ++idx;
        }
        out[k] = static_cast<I>(idx);
      }
    }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(R, 1)));
    return;
  }
  // Columns: keep the running best of a tile of columns while walking the rows.
  const int64_t tiles = (K2 + kArgTile - 1) / kArgTile;
  for_range(K1 * tiles, [&](int64_t b, int64_t e) {
    C best[kArgTile];
    int64_t idx[kArgTile];
    for (int64_t u = b; u < e; ++u) {
      const int64_t k1 = u / tiles, c0 = (u % tiles) * kArgTile, w = std::min(kArgTile, K2 - c0);
      for (int64_t j = 0; j < w; ++j) {
        best[j] = init;
        idx[j] = 0;
      }
      for (int64_t r = 0; r < R; ++r) {
        const T* row = in + (k1 * R + r) * K2 + c0;
        for (int64_t j = 0; j < w; ++j) {
          const C v = static_cast<C>(row[j]);
          if (better(v, best[j])) {
            best[j] = v;
            idx[j] = r;
          }
        }
      }
      I* dst = out + k1 * K2 + c0;
      for (int64_t j = 0; j < w; ++j) dst[j] = static_cast<I>(idx[j]);
    }
  }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(R * kArgTile, 1)));
}

template <bool kMax, typename T>
void arg_dispatch_out(const TensorImpl& in, const AxisSplit& s, TensorImpl* out) {
  switch (out->dtype()) {
    case DType::kInt16: arg_typed<kMax, T, int16_t>(in.data<T>(), s, out->data<int16_t>()); break;
    case DType::kInt32: arg_typed<kMax, T, int32_t>(in.data<T>(), s, out->data<int32_t>()); break;
    default: arg_typed<kMax, T, int64_t>(in.data<T>(), s, out->data<int64_t>()); break;
  }
}

template <bool kMax>
void arg_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_type(c.op, in.dtype(), kTypesReal | kBitsWideUInt | kBitsBFloat16 | kTypesBool);
  check_index_dtype(c.op, c.input(1)->dtype(), /*allow_int16=*/true);
  DType out_type = c.attrs.get<DType>("output_type", DType::kInt64);
  if (out_type != DType::kInt16 && out_type != DType::kInt32 && out_type != DType::kInt64)
    throw_error(Code::kInvalidArgument, "Value for attr 'output_type' of ", tf_type_string(out_type),
                " is not in the list of allowed values: int16, uint16, int32, int64\n\t; NodeDef: {{node ",
                c.op.name, "}}");
  const int axis = scalar_axis(*c.input(1), in.rank(), /*scan=*/false);
  if (in.shape()[axis] == 0)
    throw_error(Code::kInvalidArgument, "Reduction axis ", axis, " is empty in shape ", in.shape().to_list_string());
  Shape os = in.shape();
  os.erase(axis);
  TensorImpl* out = c.allocate_output(0, out_type, os);
  if (out->num_elements() == 0) return;
  const AxisSplit s = split_at_axis(in.shape(), axis);
  if (in.dtype() == DType::kBool) {
    arg_dispatch_out<kMax, bool>(in, s, out);
    return;
  }
  switch (in.dtype()) {
    EF_CASES_REAL(arg_dispatch_out<kMax, T>(in, s, out))
    EF_CASES_WIDE_UINT(arg_dispatch_out<kMax, T>(in, s, out))
    EF_CASE(kBFloat16, bfloat16, arg_dispatch_out<kMax, T>(in, s, out))
    default: throw_no_kernel(c.op, "T", in.dtype());
  }
}

EF_REGISTER_CPU_KERNEL("ArgMax", arg_kernel<true>);
EF_REGISTER_CPU_KERNEL("ArgMin", arg_kernel<false>);

}  // namespace
}  // namespace ef
