// The ops and constants of the C++ gradient functions.
#include "autodiff/gradients/grad_util.h"

#include <limits>

#include "eager/execute.h"

namespace ef::grad {

namespace {
constexpr char kAddV2[] = "AddV2", kSub[] = "Sub", kMul[] = "Mul", kRealDiv[] = "RealDiv", kNeg[] = "Neg",
               kExp[] = "Exp", kReshape[] = "Reshape", kSum[] = "Sum";

Attrs keep_dims_attrs(bool keep) {
  Attrs a;
  a.set("keep_dims", keep);
  return a;
}
}  // namespace

Tensor run(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  return execute1(op, inputs, attrs);
}

Tensor add(const Tensor& a, const Tensor& b) { return run(op<kAddV2>(), {a, b}); }
Tensor sub(const Tensor& a, const Tensor& b) { return run(op<kSub>(), {a, b}); }
Tensor mul(const Tensor& a, const Tensor& b) { return run(op<kMul>(), {a, b}); }
Tensor div(const Tensor& a, const Tensor& b) { return run(op<kRealDiv>(), {a, b}); }
Tensor neg(const Tensor& a) { return run(op<kNeg>(), {a}); }
Tensor exp(const Tensor& a) { return run(op<kExp>(), {a}); }
Tensor reshape(const Tensor& a, const Tensor& shape) { return run(op<kReshape>(), {a, shape}); }

Tensor sum(const Tensor& a, const Tensor& axes, bool keep_dims) {
  static const Attrs keep = keep_dims_attrs(true), drop = keep_dims_attrs(false);
  return run(op<kSum>(), {a, axes}, keep_dims ? keep : drop);
}

Tensor real_scalar(double v, DType dtype) {
  if (dtype == DType::kFloat64) return TensorImpl::scalar<double>(v);
  if (dtype == DType::kFloat32) return TensorImpl::scalar<float>(static_cast<float>(v));
  throw_error(Code::kInternal, "C++ gradients take float and double only, got ", dtype_name(dtype));
}

Tensor int_scalar_of(int64_t v, DType dtype) {
  if (dtype == DType::kFloat64) return TensorImpl::scalar<double>(static_cast<double>(v));
  if (dtype == DType::kFloat32) return TensorImpl::scalar<float>(static_cast<float>(v));
  throw_error(Code::kInternal, "C++ gradients take float and double only, got ", dtype_name(dtype));
}

Tensor int32_vector(const std::vector<int64_t>& v) {
  Tensor t = TensorImpl::empty(DType::kInt32, Shape({static_cast<int64_t>(v.size())}));
  int32_t* p = t->data<int32_t>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<int32_t>(v[i]);
  return t;
}

Tensor int32_scalar(int32_t v) { return TensorImpl::scalar<int32_t>(v); }

Tensor shape_tensor(const Shape& s) {
  bool fits = true;
  for (int64_t d : s) fits = fits && d <= std::numeric_limits<int32_t>::max();
  if (fits) return int32_vector(s.to_vector());
  Tensor t = TensorImpl::empty(DType::kInt64, Shape({static_cast<int64_t>(s.rank())}));
  for (int i = 0; i < s.rank(); ++i) t->data<int64_t>()[i] = s[i];
  return t;
}

}  // namespace ef::grad
