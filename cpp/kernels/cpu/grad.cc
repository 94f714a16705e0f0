// CPU kernels of the gradient helper ops: StopGradient, BroadcastGradientArgs, BroadcastArgs.
#include <algorithm>

#include "core/errors.h"
#include "ops/registry.h"

namespace ef {
namespace {

void stop_gradient_kernel(KernelContext& c) { c.set_output(0, c.input(0)->with_shape(c.input(0)->shape())); }

std::string dims_string(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// r0/r1: the output axes input 0/1 was broadcast along (left padding, or a dim of 1, as TF
// lists them); summing the output gradient over them gives the input's gradient.
void broadcast_gradient_args_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  const TensorImpl& b = *c.input(1);
  EF_INVALID(a.dtype() == b.dtype() && (a.dtype() == DType::kInt32 || a.dtype() == DType::kInt64),
             "BroadcastGradientArgs expects two int32 or int64 shape vectors");
  EF_INVALID(a.rank() == 1 && b.rank() == 1, "BroadcastGradientArgs expects vectors, got shapes ",
             a.shape().to_list_string(), " and ", b.shape().to_list_string());
  std::vector<int64_t> s0 = tensor_to_int_vector(a), s1 = tensor_to_int_vector(b);
  const size_t n = std::max(s0.size(), s1.size());
  std::vector<int64_t> r0, r1;
  for (size_t i = 0; i < n; ++i) {
    const bool in0 = i + s0.size() >= n, in1 = i + s1.size() >= n;
    const int64_t d0 = in0 ? s0[i + s0.size() - n] : 1, d1 = in1 ? s1[i + s1.size() - n] : 1;
    if (d0 != d1 && d0 != 1 && d1 != 1)
      throw_error(Code::kInvalidArgument, "Incompatible shapes: ", dims_string(s0), " vs. ", dims_string(s1));
    if (s0 == s1) continue;  // TF: equal shapes reduce nothing (even their 1s)
    if (!in0 || d0 == 1) r0.push_back(static_cast<int64_t>(i));
    if (!in1 || d1 == 1) r1.push_back(static_cast<int64_t>(i));
  }
  auto emit = [&](size_t k, const std::vector<int64_t>& r) {
    TensorImpl* t = c.allocate_output(k, a.dtype(), Shape({static_cast<int64_t>(r.size())}));
    for (size_t i = 0; i < r.size(); ++i) {
      if (a.dtype() == DType::kInt32) {
        t->data<int32_t>()[i] = static_cast<int32_t>(r[i]);
      } else {
        t->data<int64_t>()[i] = r[i];
      }
    }
  };
  emit(0, r0);
  emit(1, r1);
}

void broadcast_args_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  const TensorImpl& b = *c.input(1);
  EF_INVALID(a.dtype() == b.dtype() && (a.dtype() == DType::kInt32 || a.dtype() == DType::kInt64),
             "BroadcastArgs expects two int32 or int64 shape vectors");
  EF_INVALID(a.rank() == 1 && b.rank() == 1, "BroadcastArgs expects vectors, got shapes ",
             a.shape().to_list_string(), " and ", b.shape().to_list_string());
  std::vector<int64_t> s0 = tensor_to_int_vector(a), s1 = tensor_to_int_vector(b);
  const size_t n = std::max(s0.size(), s1.size());
  TensorImpl* t = c.allocate_output(0, a.dtype(), Shape({static_cast<int64_t>(n)}));
  for (size_t i = 0; i < n; ++i) {
    const int64_t d0 = i + s0.size() >= n ? s0[i + s0.size() - n] : 1;
    const int64_t d1 = i + s1.size() >= n ? s1[i + s1.size() - n] : 1;
    if (d0 != d1 && d0 != 1 && d1 != 1)
      throw_error(Code::kInvalidArgument, "Incompatible shapes: ", dims_string(s0), " vs. ", dims_string(s1));
    const int64_t d = d0 == 1 ? d1 : d0;
    if (a.dtype() == DType::kInt32) {
      t->data<int32_t>()[i] = static_cast<int32_t>(d);
    } else {
      t->data<int64_t>()[i] = d;
    }
  }
}

EF_REGISTER_CPU_KERNEL("StopGradient", stop_gradient_kernel);
EF_REGISTER_CPU_KERNEL("BroadcastGradientArgs", broadcast_gradient_args_kernel);
EF_REGISTER_CPU_KERNEL("BroadcastArgs", broadcast_args_kernel);

}  // namespace
}  // namespace ef
