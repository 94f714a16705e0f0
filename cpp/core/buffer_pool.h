// BufferPool: tensor buffers released during one plan run, handed to later kernel outputs of the
// same byte size (static memory reuse without a malloc/free per intermediate).
#pragma once
#include <memory>
#include <vector>

#include "core/buffer.h"
#include "core/tensor.h"

namespace ef {

class BufferPool {
 public:
  // Keeps `t`'s buffer for reuse when nothing else can see it: `t` is its only owner (the caller
  // is dropping its last reference) and the buffer belongs to `t` alone. Strings are never pooled.
  void recycle(Tensor& t);
  // A tensor backed by a pooled buffer of exactly the needed size, or null (caller allocates).
  Tensor make(DType dtype, const Shape& shape);
  size_t size() const { return free_.size(); }

 private:
  std::vector<std::shared_ptr<Buffer>> free_;
};

// The pool kernel outputs come from on this thread (null: plain allocation). Set by Plan::run.
BufferPool*& current_buffer_pool();

// Installs `pool` as this thread's pool for a scope (nested plan runs restore the outer one).
class BufferPoolScope {
 public:
  explicit BufferPoolScope(BufferPool* pool) : prev_(current_buffer_pool()) { current_buffer_pool() = pool; }
  ~BufferPoolScope() { current_buffer_pool() = prev_; }
  BufferPoolScope(const BufferPoolScope&) = delete;
  BufferPoolScope& operator=(const BufferPoolScope&) = delete;

 private:
  BufferPool* prev_;
};

}  // namespace ef
