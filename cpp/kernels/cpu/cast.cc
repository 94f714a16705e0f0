// CPU Cast kernel: float->int truncates toward zero (out of range or NaN gives INT32_MIN /
// INT64_MIN, narrower types take int32's low bits, uint32/uint64 int64's, as x86 TF does);
// ->bool is x != 0; complex->real keeps the real part; half and bfloat16 convert through float.
#include "kernels/cpu/cast.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"

namespace ef {

template <class T>
constexpr bool kIsComplex = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;
template <class T>
constexpr bool kIsFloat16 = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;

template <typename From, typename To>
inline To cast_value(From v) {
  if constexpr (std::is_same_v<From, To>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (kIsComplex<From> && kIsComplex<To>) {
    using R = typename To::value_type;
    return To(static_cast<R>(v.real()), static_cast<R>(v.imag()));
  } else if constexpr (kIsComplex<From>) {
    return cast_value<typename From::value_type, To>(v.real());
  } else if constexpr (kIsComplex<To>) {
    return To(cast_value<From, typename To::value_type>(v), 0);
  } else if constexpr (kIsFloat16<From>) {
    return cast_value<float, To>(static_cast<float>(v));
  } else if constexpr (kIsFloat16<To>) {
    return To(cast_value<From, float>(v));  // through float, as TF (doubles round twice)
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From> && sizeof(To) < 4) {
    // Narrow targets go through int32 and keep its low bits, as x86 TF does (300.7 -> uint8 44).
    return static_cast<To>(cast_value<From, int32_t>(v));
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From> && std::is_unsigned_v<To>) {
    // uint32/uint64 go through int64 (-1.5 -> 2^64 - 1, out of range -> 2^63's bits); TF's
    // vectorized lanes take uint32 through int32 instead, so values >= 2^31 differ by position.
    return static_cast<To>(cast_value<From, int64_t>(v));
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    double d = static_cast<double>(v);
    if (!(d >= static_cast<double>(std::numeric_limits<To>::min()) &&
          d < static_cast<double>(std::numeric_limits<To>::max()) + 1.0))
      return std::numeric_limits<To>::min();
    return static_cast<To>(d);
  } else {
    return static_cast<To>(v);  // integers: modular, as two's complement (C++20 defines it; gcc does)
  }
}

// Shared with other kernels that need a dtype conversion.
Tensor cast_tensor(const Tensor& x, DType dst) {
  if (x->dtype() == dst) return x;
  const DType src = x->dtype();
  // Strings and handles convert to nothing else (checked before any allocation).
  const uint32_t kNoCast = kTypesString | kBitsHandle;
  if (dtype_in(src, kNoCast) || dtype_in(dst, kNoCast)) {
    throw_error(Code::kUnimplemented, "Cast ", tf_type_string(src), " to ", tf_type_string(dst), " is not supported");
  }
  Tensor out = TensorImpl::empty(dst, x->shape());
  auto unsupported = [&] {
    throw_error(Code::kUnimplemented, "Cast ", tf_type_string(src), " to ", tf_type_string(dst), " is not supported");
  };
  EF_DISPATCH_POD(src, unsupported(), {
    using From = T;
    EF_DISPATCH_POD(dst, unsupported(), {
      using To = T;
      unary_loop<From, To>(*x, *out, [](From v) { return cast_value<From, To>(v); });
    });
  });
  return out;
}

namespace {
void cast_kernel(KernelContext& c) { c.set_output(0, cast_tensor(c.input(0), c.attrs.get<DType>("DstT"))); }
EF_REGISTER_CPU_KERNEL("Cast", cast_kernel);
}  // namespace

}  // namespace ef
