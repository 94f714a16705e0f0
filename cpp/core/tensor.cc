// Tensor construction and small host-side readers.
#include "core/tensor.h"

#include <cstring>

#include "core/errors.h"

namespace ef {

Tensor TensorImpl::empty(DType dtype, const Shape& shape) {
  int64_t n = shape.num_elements();
  if (n < 0) throw_error(Code::kInternal, "cannot allocate a tensor of shape ", shape.to_string());
  auto t = std::make_shared<TensorImpl>(dtype, shape);
  t->num_elements_ = n;
  size_t nbytes = checked_nbytes(dtype, n);
  if (dtype != DType::kString && nbytes <= kInlineBytes) {
    t->data_ = t->inline_;
  } else {
    t->buffer_ = Buffer::allocate(dtype, n);
    t->data_ = t->buffer_->data();
  }
  return t;
}

Tensor TensorImpl::zeros(DType dtype, const Shape& shape) {
  Tensor t = empty(dtype, shape);
  if (dtype != DType::kString) std::memset(t->data_, 0, t->nbytes());
  return t;
}

Tensor TensorImpl::from_buffer(DType dtype, const Shape& shape, std::shared_ptr<Buffer> buffer) {
  auto t = std::make_shared<TensorImpl>(dtype, shape);
  t->num_elements_ = shape.num_elements();
  t->data_ = buffer->data();
  t->buffer_ = std::move(buffer);
  return t;
}

Tensor TensorImpl::symbolic(std::shared_ptr<Graph> graph, Node* node, int index, DType dtype, const Shape& shape) {
  auto t = std::make_shared<TensorImpl>(dtype, shape);
  t->num_elements_ = shape.num_elements();
  t->graph_ = std::move(graph);
  t->node_ = node;
  t->index_ = index;
  return t;
}

Tensor TensorImpl::resource_handle(std::shared_ptr<void> state) {
  auto t = std::make_shared<TensorImpl>(DType::kResource, Shape());
  t->num_elements_ = 1;
  t->resource_ = std::move(state);
  return t;
}

Tensor TensorImpl::with_shape(const Shape& shape) const {
  if (!buffer_) {
    Tensor t = empty(dtype_, shape);
    std::memcpy(t->data_, data_, nbytes());
    return t;
  }
  auto t = std::make_shared<TensorImpl>(dtype_, shape);
  t->num_elements_ = shape.num_elements();
  t->data_ = data_;
  t->buffer_ = buffer_;
  return t;
}

namespace {
template <typename R, typename T>
R read_as(const T& v) {
  if constexpr (std::is_same_v<T, complex64>) {
    return static_cast<R>(v.real());
  } else {
    return static_cast<R>(v);
  }
}
}  // namespace

int64_t tensor_int_at(const TensorImpl& t, int64_t i) {
  EF_DISPATCH_POD(t.dtype(),
                  throw_error(Code::kInvalidArgument, "expected a numeric tensor, got ", dtype_name(t.dtype())),
                  return read_as<int64_t>(t.data<T>()[i]));
  return 0;
}

double tensor_double_at(const TensorImpl& t, int64_t i) {
  EF_DISPATCH_POD(t.dtype(),
                  throw_error(Code::kInvalidArgument, "expected a numeric tensor, got ", dtype_name(t.dtype())),
                  return read_as<double>(t.data<T>()[i]));
  return 0;
}

std::vector<int64_t> tensor_to_int_vector(const TensorImpl& t) {
  std::vector<int64_t> v(t.num_elements());
  for (int64_t i = 0; i < t.num_elements(); ++i) v[i] = tensor_int_at(t, i);
  return v;
}

}  // namespace ef
