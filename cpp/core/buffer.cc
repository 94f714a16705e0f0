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

#include "core/cpu_allocator.h"
#include "core/errors.h"

namespace ef {

namespace {
constexpr size_t kAlign = 64;

#if defined(__GLIBC__)
// Buffers below kLargeBlockMin come from malloc's heap; its other users (kernels' scratch vectors)
// keep their pages up to 32 MiB mapped when freed rather than mmap/munmap each one and re-fault
// the same pages on every step.
struct MallocTuning {
  MallocTuning() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
  }
} g_malloc_tuning;
#endif

// Requests below 256 KiB are recycled through a per-thread cache of recently freed blocks of the
// same size. glibc serves 64-byte-aligned requests through memalign, which splits chunks and
// merges the pieces again on free; tf.data allocates and frees a row tensor per element (a
// shuffle + batch pipeline spent a third of its time in malloc/free). Bounded: a few sizes and
// 4 MiB per thread; a thread's cache is freed when the thread exits.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kCachedMax = 0;  // ASan must see every free
#else
constexpr size_t kCachedMax = kLargeBlockMin;  // larger requests: cpu_allocator.h
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

// Large or small by the requested size, as TF's oneDNN CPU allocator splits them (and reports).
void* allocate_bytes(size_t nbytes, size_t rounded) {
  if (nbytes >= kLargeBlockMin) return allocate_large_block(nbytes);
  if (kCachedMax != 0 && rounded <= kCachedMax && !t_cache_gone) {
    if (void* p = t_cache.take(rounded)) return p;
  }
  return std::aligned_alloc(kAlign, rounded);
}

void release_bytes(void* p, size_t nbytes, size_t rounded) {
  if (nbytes >= kLargeBlockMin) return release_large_block(p, nbytes);
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
  void* p = allocate_bytes(nbytes, rounded);
  if (!p && trim_cpu_allocator() > 0) p = allocate_bytes(nbytes, rounded);  // cached blocks go first
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
  release_bytes(data_, nbytes_, rounded_size(nbytes_));
}

}  // namespace ef
