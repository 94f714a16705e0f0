// CPU kernels of the small nn ops: L2Loss, LeakyRelu (and its gradient), BiasAdd (and its
// gradient, the bias's sum over every dim but the channel dim). float16 computes in float.
#include <type_traits>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;

void l2_loss_kernel(KernelContext& c) {
  const TensorImpl& t = *c.input(0);
  check_type(c.op, t.dtype(), kTypesFloat);
  TensorImpl* out = c.allocate_output(0, t.dtype(), Shape({}));
  EF_DISPATCH_FLOAT(t.dtype(), throw_no_kernel(c.op, "T", t.dtype()), {
    Acc<T> s = 0;
    const T* p = t.data<T>();
    for (int64_t i = 0, n = t.num_elements(); i < n; ++i) s += static_cast<Acc<T>>(p[i]) * static_cast<Acc<T>>(p[i]);
    *out->data<T>() = static_cast<T>(s / 2);
  });
}

void leaky_relu_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_type(c.op, x.dtype(), kTypesFloat);
  const double alpha = c.attrs.get<double>("alpha", 0.2);
  TensorImpl* out = c.allocate_output(0, x.dtype(), x.shape());
  EF_DISPATCH_FLOAT(x.dtype(), throw_no_kernel(c.op, "T", x.dtype()), {
    const Acc<T> a = static_cast<Acc<T>>(alpha);
    unary_loop<T, T>(x, *out, [a](T v) { return v > T(0) ? v : static_cast<T>(a * static_cast<Acc<T>>(v)); });
  });
}

// The checks ReluGrad and LeakyReluGrad share: float gradients and features of one dtype and shape.
void check_grad_inputs(const KernelContext& c, const TensorImpl& g, const TensorImpl& x) {
  check_type(c.op, g.dtype(), kTypesFloat);
  check_same_dtype(c.op, g.dtype(), x.dtype(), 1);
  if (g.shape() != x.shape())
    throw_error(Code::kInvalidArgument, "gradients and features must have the same shape: ", g.shape().to_list_string(),
                " vs. ", x.shape().to_list_string());
}

// gradients where features > 0, 0 elsewhere (one pass; the gradient as a Select of a comparison
// took three full-size temporaries).
void relu_grad_kernel(KernelContext& c) {
  const TensorImpl& g = *c.input(0);
  const TensorImpl& x = *c.input(1);
  check_grad_inputs(c, g, x);
  TensorImpl* out = c.allocate_output(0, g.dtype(), g.shape());
  EF_DISPATCH_FLOAT(g.dtype(), throw_no_kernel(c.op, "T", g.dtype()), {
    const T* pg = g.data<T>();
    const T* px = x.data<T>();
    T* po = out->data<T>();
    for_range(g.num_elements(), [=](int64_t s, int64_t e) {
      const T* __restrict gi = pg;
      const T* __restrict xi = px;
      T* __restrict oi = po;
      for (int64_t i = s; i < e; ++i) {  // both loaded, then a select: vectorizes, no branch
        const T v = gi[i];
        oi[i] = xi[i] > T(0) ? v : T(0);
      }
    });
  });
}

// gradients where features > 0, alpha * gradients elsewhere.
void leaky_relu_grad_kernel(KernelContext& c) {
  const TensorImpl& g = *c.input(0);
  const TensorImpl& x = *c.input(1);
  check_grad_inputs(c, g, x);
  const double alpha = c.attrs.get<double>("alpha", 0.2);
  TensorImpl* out = c.allocate_output(0, g.dtype(), g.shape());
  EF_DISPATCH_FLOAT(g.dtype(), throw_no_kernel(c.op, "T", g.dtype()), {
    const Acc<T> a = static_cast<Acc<T>>(alpha);
    const T* pg = g.data<T>();
    const T* px = x.data<T>();
    T* po = out->data<T>();
    for_range(g.num_elements(), [=](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = px[i] > T(0) ? pg[i] : static_cast<T>(a * static_cast<Acc<T>>(pg[i]));
    });
  });
}

// The layout of a value around its channel dim: outer x channels x inner.
struct ChannelLayout {
  int64_t outer = 1, channels = 1, inner = 1;
};

ChannelLayout channel_layout(const Shape& s, bool nchw) {
  ChannelLayout l;
  const int ch = nchw ? 1 : s.rank() - 1;
  for (int i = 0; i < s.rank(); ++i) {
    if (i < ch) l.outer *= s[i];
    else if (i == ch) l.channels = s[i];
    else l.inner *= s[i];
  }
  return l;
}

bool nchw(const KernelContext& c) { return c.attrs.get<std::string>("data_format", "NHWC") == "NCHW"; }

void bias_add_kernel(KernelContext& c) {
  const TensorImpl& v = *c.input(0);
  const TensorImpl& b = *c.input(1);
  check_type(c.op, v.dtype(), kTypesNumeric);
  check_same_dtype(c.op, v.dtype(), b.dtype(), 1);
  infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, v.dtype(), v.shape());
  const ChannelLayout l = channel_layout(v.shape(), nchw(c));
  EF_DISPATCH_NUMERIC(v.dtype(), throw_no_kernel(c.op, "T", v.dtype()), {
    const T* pv = v.data<T>();
    const T* pb = b.data<T>();
    T* po = out->data<T>();
    if (l.inner == 1) {  // channels last: a row of channels at a time, no index division per element
      for_range(l.outer, [=](int64_t s, int64_t e) {
        for (int64_t o = s; o < e; ++o)
          for (int64_t k = 0; k < l.channels; ++k)
            po[o * l.channels + k] = static_cast<T>(pv[o * l.channels + k] + pb[k]);
      }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(l.channels, 1)));
      return;
    }
    for_range(l.outer * l.channels, [=](int64_t s, int64_t e) {
      for (int64_t r = s; r < e; ++r) {
        const T bias = pb[r % l.channels];
        for (int64_t i = 0; i < l.inner; ++i) po[r * l.inner + i] = static_cast<T>(pv[r * l.inner + i] + bias);
      }
    }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(l.inner, 1)));
  });
}

void bias_add_grad_kernel(KernelContext& c) {
  const TensorImpl& g = *c.input(0);
  check_type(c.op, g.dtype(), kTypesNumeric);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, g.dtype(), ic.out_shapes[0]);
  const ChannelLayout l = channel_layout(g.shape(), nchw(c));
  EF_DISPATCH_NUMERIC(g.dtype(), throw_no_kernel(c.op, "T", g.dtype()), {
    using A = std::conditional_t<std::is_same_v<T, half>, float, T>;
    std::vector<A> sum(static_cast<size_t>(l.channels), A(0));
    const T* pg = g.data<T>();
    if (l.inner == 1) {  // channels last: rows of channels added elementwise (vectorizes)
      A* ps = sum.data();
      for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t k = 0; k < l.channels; ++k) ps[k] += static_cast<A>(pg[o * l.channels + k]);
    } else {
      for (int64_t r = 0; r < l.outer * l.channels; ++r) {
        A s = A(0);
        for (int64_t i = 0; i < l.inner; ++i) s += static_cast<A>(pg[r * l.inner + i]);
        sum[r % l.channels] += s;
      }
    }
    for (int64_t k = 0; k < l.channels; ++k) out->data<T>()[k] = static_cast<T>(sum[k]);
  });
}

EF_REGISTER_CPU_KERNEL("L2Loss", l2_loss_kernel);
EF_REGISTER_CPU_KERNEL("LeakyRelu", leaky_relu_kernel);
EF_REGISTER_CPU_KERNEL("LeakyReluGrad", leaky_relu_grad_kernel);
EF_REGISTER_CPU_KERNEL("ReluGrad", relu_grad_kernel);
EF_REGISTER_CPU_KERNEL("BiasAdd", bias_add_kernel);
EF_REGISTER_CPU_KERNEL("BiasAddGrad", bias_add_grad_kernel);

}  // namespace
}  // namespace ef
