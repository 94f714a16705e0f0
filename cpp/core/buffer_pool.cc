// BufferPool: reuse of released intermediate buffers inside a plan run.
#include "core/buffer_pool.h"

namespace ef {

namespace {
// A run rarely has more than a handful of distinct live sizes; a bound keeps the scan short.
constexpr size_t kMaxPooled = 16;
}  // namespace

BufferPool*& current_buffer_pool() {
  thread_local BufferPool* pool __attribute__((tls_model("initial-exec"))) = nullptr;
  return pool;
}

void BufferPool::recycle(Tensor& t) {
  if (!t || t.use_count() != 1 || t->dtype() == DType::kString) return;
  const std::shared_ptr<Buffer>& b = t->buffer();
  if (!b || b.use_count() != 1 || free_.size() >= kMaxPooled) return;
  free_.push_back(b);  // the tensor is about to go; the pool becomes the buffer's only owner
}

Tensor BufferPool::make(DType dtype, const Shape& shape) {
  if (free_.empty() || dtype == DType::kString) return nullptr;
  const int64_t n = shape.num_elements();
  if (n <= 0) return nullptr;
  const size_t nbytes = checked_nbytes(dtype, n);
  if (nbytes <= TensorImpl::kInlineBytes) return nullptr;  // inline storage is cheaper
  for (size_t i = free_.size(); i-- > 0;) {  // most recently released first: still in cache
    if (free_[i]->nbytes() == nbytes) {
      std::shared_ptr<Buffer> b = std::move(free_[i]);
      free_[i] = std::move(free_.back());
      free_.pop_back();
      return TensorImpl::from_buffer(dtype, shape, std::move(b));
    }
  }
  return nullptr;
}

}  // namespace ef
