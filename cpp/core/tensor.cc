// Tensor construction and small host-side readers.
#include "core/tensor.h"

#include <algorithm>

#include <cstring>
#include <memory>
#include <new>

#include "core/errors.h"

namespace ef {

namespace {

// TensorImpl is 64-byte aligned (its inline data), so make_shared would go through aligned
// operator new, i.e. memalign, several times slower than malloc: the main cost of a small op.
// The blocks (shared_ptr control block + TensorImpl: allocate_shared allocates only that one
// type, so all blocks have one size) are recycled through a per-thread free list instead.
struct FreeBlock {
  FreeBlock* next;
};
constexpr int kMaxFreeBlocks = 1024;
constexpr std::align_val_t kImplAlign{alignof(TensorImpl)};
// initial-exec: a plain %fs-relative load instead of a __tls_get_addr call per tensor.
#define EF_TLS_FAST __attribute__((tls_model("initial-exec")))
thread_local bool t_free_list_gone EF_TLS_FAST = false;  // trivially destructible: readable at thread exit

struct FreeList {
  FreeBlock* top = nullptr;
  int count = 0;
  ~FreeList();
};
thread_local FreeList t_free_list EF_TLS_FAST;

template <class T>
struct ImplAllocator {
  using value_type = T;
  static_assert(alignof(T) <= alignof(TensorImpl), "one alignment for every block");
  ImplAllocator() = default;
  template <class U>
  ImplAllocator(const ImplAllocator<U>&) {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    if (n == 1 && !t_free_list_gone && t_free_list.top) {
      FreeBlock* b = t_free_list.top;
      t_free_list.top = b->next;
      --t_free_list.count;
      return reinterpret_cast<T*>(b);
    }
    return static_cast<T*>(::operator new(n * sizeof(T), kImplAlign));
  }
  void deallocate(T* p, size_t n) {
    if (n == 1 && !t_free_list_gone && t_free_list.count < kMaxFreeBlocks) {
      auto* b = reinterpret_cast<FreeBlock*>(p);
      b->next = t_free_list.top;
      t_free_list.top = b;
      ++t_free_list.count;
      return;
    }
    ::operator delete(p, kImplAlign);
  }
  template <class U>
  bool operator==(const ImplAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const ImplAllocator<U>&) const { return false; }
};

FreeList::~FreeList() {
  t_free_list_gone = true;
  while (top) {
    FreeBlock* b = top;
    top = b->next;
    ::operator delete(b, kImplAlign);
  }
}

template <class... A>
std::shared_ptr<TensorImpl> new_impl(A&&... args) {
  return std::allocate_shared<TensorImpl>(ImplAllocator<TensorImpl>(), std::forward<A>(args)...);
}

}  // namespace

Tensor TensorImpl::empty(DType dtype, const Shape& shape) {
  int64_t n = shape.num_elements();
  if (n < 0) throw_error(Code::kInternal, "cannot allocate a tensor of shape ", shape.to_string());
  auto t = new_impl(dtype, shape);
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

Tensor TensorImpl::from_buffer(DType dtype, const Shape& shape, std::shared_ptr<Buffer> buffer,
                               size_t byte_offset) {
  auto t = new_impl(dtype, shape);
  t->num_elements_ = shape.num_elements();
  t->data_ = static_cast<char*>(buffer->data()) + byte_offset;
  t->buffer_ = std::move(buffer);
  return t;
}

Tensor TensorImpl::view_of(const TensorImpl& t, int64_t offset, const Shape& shape) {
  const size_t size = dtype_size(t.dtype());
  if (!t.buffer() || t.dtype() == DType::kString || t.is_symbolic() ||
      size * static_cast<size_t>(shape.num_elements()) <= kInlineBytes)
    return nullptr;
  const size_t base = static_cast<size_t>(static_cast<const char*>(t.raw_data()) -
                                          static_cast<const char*>(t.buffer()->data()));
  return from_buffer(t.dtype(), shape, t.buffer(), base + static_cast<size_t>(offset) * size);
}

Tensor TensorImpl::symbolic(std::shared_ptr<Graph> graph, Node* node, int index, DType dtype, const Shape& shape) {
  auto t = new_impl(dtype, shape);
  t->num_elements_ = shape.num_elements();
  t->graph_ = std::move(graph);
  t->node_ = node;
  t->index_ = index;
  return t;
}

Tensor TensorImpl::handle(DType dtype, std::shared_ptr<void> state, const std::type_info& type) {
  auto t = new_impl(dtype, Shape());
  t->num_elements_ = 1;
  t->resource_ = std::move(state);
  t->resource_type_ = &type;
  return t;
}

Tensor TensorImpl::with_shape(const Shape& shape) const {
  if (resource_) {  // resource handles and variants (Identity of a TensorList) share their value
    auto t = new_impl(dtype_, shape);
    t->num_elements_ = shape.num_elements();
    t->resource_ = resource_;
    t->resource_type_ = resource_type_;
    return t;
  }
  if (!buffer_) {
    Tensor t = empty(dtype_, shape);
    std::memcpy(t->data_, data_, nbytes());
    return t;
  }
  auto t = new_impl(dtype_, shape);
  t->num_elements_ = shape.num_elements();
  t->data_ = data_;
  t->buffer_ = buffer_;
  return t;
}

namespace {
template <typename R, typename T>
R read_as(const T& v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
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
  switch (t.dtype()) {  // index tensors: one copy loop each
    case DType::kInt16: std::copy(t.data<int16_t>(), t.data<int16_t>() + v.size(), v.begin()); break;
    case DType::kInt32: std::copy(t.data<int32_t>(), t.data<int32_t>() + v.size(), v.begin()); break;
    case DType::kInt64: std::copy(t.data<int64_t>(), t.data<int64_t>() + v.size(), v.begin()); break;
    default:
      for (int64_t i = 0; i < t.num_elements(); ++i) v[i] = tensor_int_at(t, i);
  }
  return v;
}

}  // namespace ef
