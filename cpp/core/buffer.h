// Buffer: a reference-counted, 64-byte-aligned block of tensor memory.
#pragma once
#include <cstddef>
#include <memory>

#include "core/dtype.h"

namespace ef {

class Buffer {
 public:
  // Allocates room for `count` elements of `dtype` (strings are constructed empty).
  // Throws OpError(kResourceExhausted) when the size overflows or memory runs out.
  static std::shared_ptr<Buffer> allocate(DType dtype, int64_t count);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

 private:
  Buffer(void* data, size_t nbytes, DType dtype, int64_t count)
      : data_(data), nbytes_(nbytes), dtype_(dtype), count_(count) {}
  void* data_;
  size_t nbytes_;
  DType dtype_;
  int64_t count_;
};

// Checked byte size of `count` elements: throws kResourceExhausted on overflow or absurd sizes.
size_t checked_nbytes(DType dtype, int64_t count);

}  // namespace ef
