// Aligned allocation with clear errors; string buffers construct and destroy their elements.
#include "core/buffer.h"

#include <array>
#include <cstdlib>
#include <vector>
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

// Blocks up to 256 KiB are recycled through a per-thread cache of recently freed blocks of the
// same size. glibc serves 64-byte-aligned requests through memalign, which splits chunks and
// merges the pieces again on free; tf.data allocates and frees a row tensor per element (a
// shuffle + batch pipeline spent a third of its time in malloc/free). Bounded: a few sizes and
// 4 MiB per thread; a thread's cache is freed when the thread exits.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kCachedMax = 0;  // ASan must see every free
#else
constexpr size_t kCachedMax = size_t(256) << 10;
#endif
constexpr size_t kCacheBytes = size_t(4) << 20;
constexpr size_t kCacheBins = 8;
thread_local bool t_cache_gone __attribute__((tls_model("initial-exec"))) = false;  // readable at thread exit

struct BlockCache {
  struct Bin {
    size_t size = 0;
    std::vector<void*> blocks;
  };
  std::array<Bin, kCacheBins> bins;
  size_t bytes = 0;
  ~BlockCache() {
    t_cache_gone = true;
    for (Bin& b : bins)
      for (void* p : b.blocks) std::free(p);
  }
  void* take(size_t size) {
    for (Bin& b : bins) {
      if (b.size == size && !b.blocks.empty()) {
        void* p = b.blocks.back();
        b.blocks.pop_back();
        bytes -= size;
        return p;
      }
    }
    return nullptr;
  }
  bool put(void* p, size_t size) {
    if (bytes + size > kCacheBytes) return false;
    Bin* bin = nullptr;
    for (Bin& b : bins) {
      if (b.size == size) {
        bin = &b;
        break;
      }
      if (!bin && b.blocks.empty()) bin = &b;  // an unused bin takes the new size
    }
    if (!bin) return false;
    bin->size = size;
    bin->blocks.push_back(p);
    bytes += size;
    return true;
  }
};
thread_local BlockCache t_cache;

void* take_cached(size_t rounded) {
  if (kCachedMax == 0 || rounded > kCachedMax || t_cache_gone) return nullptr;
  return t_cache.take(rounded);
}

void release_bytes(void* p, size_t rounded) {
  if (rounded <= kCachedMax && !t_cache_gone && t_cache.put(p, rounded)) return;
  std::free(p);
}

size_t rounded_size(size_t nbytes) {
  const size_t rounded = (nbytes + kAlign - 1) / kAlign * kAlign;
  return rounded == 0 ? kAlign : rounded;
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
  const size_t rounded = rounded_size(nbytes);
  void* p = take_cached(rounded);
  if (!p) p = allocate_bytes(rounded);
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
  release_bytes(data_, rounded_size(nbytes_));
}

}  // namespace ef
