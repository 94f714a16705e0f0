// Aligned allocation with clear errors; string buffers construct and destroy their elements.
#include "core/buffer.h"

#include <cstdlib>
#include <new>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/errors.h"

namespace ef {

namespace {
constexpr size_t kAlign = 64;

#if defined(__GLIBC__)
// Tensors up to 32 MiB come from malloc's heap and their pages stay mapped when freed: glibc
// would otherwise mmap/munmap each one (and trim the heap), so every training step re-faults
// and re-zeroes the same pages (a third of a small MLP step's time). Like TF's BFC allocator,
// memory is kept for reuse rather than returned to the OS at once.
struct MallocTuning {
  MallocTuning() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
  }
} g_malloc_tuning;
#endif
// Buffers of 4 MiB and more are 2 MiB aligned and advised to use transparent huge pages (as
// NumPy does): one fault maps 2 MiB instead of 4 KiB, so a fresh 64 MiB tensor fills about 2x
// faster where THP is in `madvise` mode (the usual default).
constexpr size_t kHugeThreshold = size_t(4) << 20;
constexpr size_t kHugeAlign = size_t(2) << 20;

void* allocate_bytes(size_t rounded) {
  if (rounded < kHugeThreshold) return std::aligned_alloc(kAlign, rounded);
  const size_t size = (rounded + kHugeAlign - 1) / kHugeAlign * kHugeAlign;
  void* p = std::aligned_alloc(kHugeAlign, size);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p) madvise(p, size, MADV_HUGEPAGE);  // advice only: failure changes nothing
#endif
  return p;
}

// Refuse single allocations beyond 1 TiB up front: malloc may overcommit and crash later.
constexpr size_t kMaxBytes = size_t(1) << 40;
}  // namespace

size_t checked_nbytes(DType dtype, int64_t count) {
  size_t esize = dtype_size(dtype);
  // Handles (resource, variant) have no element storage: only their own constructors make them.
  if (esize == 0) throw_error(Code::kInternal, "cannot allocate element storage for dtype ", dtype_name(dtype));
  if (count < 0 || (count > 0 && static_cast<size_t>(count) > kMaxBytes / esize)) {
    throw_error(Code::kResourceExhausted, "OOM when allocating tensor with ", count,
                " elements of type ", dtype_name(dtype), " on /job:localhost/replica:0/task:0/device:CPU:0");
  }
  return static_cast<size_t>(count) * esize;
}

std::shared_ptr<Buffer> Buffer::allocate(DType dtype, int64_t count) {
  size_t nbytes = checked_nbytes(dtype, count);
  size_t rounded = (nbytes + kAlign - 1) / kAlign * kAlign;
  if (rounded == 0) rounded = kAlign;
  void* p = allocate_bytes(rounded);
  if (!p) {
    throw_error(Code::kResourceExhausted, "OOM when allocating tensor with ", count,
                " elements of type ", dtype_name(dtype), " (", nbytes, " bytes)");
  }
  if (dtype == DType::kString) {
    auto* s = static_cast<std::string*>(p);
    for (int64_t i = 0; i < count; ++i) new (s + i) std::string();
  }
  return std::shared_ptr<Buffer>(new Buffer(p, nbytes, dtype, count));
}

Buffer::~Buffer() {
  if (dtype_ == DType::kString) {
    auto* s = static_cast<std::string*>(data_);
    for (int64_t i = 0; i < count_; ++i) s[i].~basic_string();
  }
  std::free(data_);
}

}  // namespace ef
