// The CPU allocator for large tensor buffers: size-class caching of freed blocks (as TF's BFC and
// PyTorch's caching allocators keep memory), and TF's allocator statistics.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ef {

// Buffers of this many bytes and more take the large-block path (TF's oneDNN CPU allocator sends
// the same sizes to its BFC allocator, and reports only those in get_memory_info).
constexpr size_t kLargeBlockMin = size_t(256) << 10;

// Returns memory for `nbytes` (>= kLargeBlockMin; 64-byte aligned, 2 MiB from 4 MiB up), a
// cached block of the same size class when one is free. Null when memory runs out even after the
// cache was released. Contents are unspecified.
void* allocate_large_block(size_t nbytes);
// Gives back a block from allocate_large_block(nbytes) (the same `nbytes`).
void release_large_block(void* p, size_t nbytes);

// TF's AllocatorStats, for the large blocks: bytes are the requested sizes rounded up to 256
// (as BFC rounds them), the cache holds whole size-class blocks.
struct AllocatorStats {
  int64_t num_allocs = 0;         // large blocks handed out
  int64_t num_cache_hits = 0;     // of them, served from the cache
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t bytes_cached = 0;       // freed blocks kept for reuse
  int64_t cache_limit = 0;        // the most bytes the cache keeps
};
AllocatorStats cpu_allocator_stats();
// TF's reset_memory_stats: the peak becomes the current use.
void reset_peak_bytes_in_use();
// Frees every cached block (memory pressure, or on request); returns the bytes released.
size_t trim_cpu_allocator();
// Bounds the cache (bytes; 0 turns caching off), trimming it to fit; returns the previous bound.
size_t set_cpu_allocator_cache_limit(size_t bytes);

// The size class a large request is served from (what the cache keys on).
size_t large_block_size(size_t nbytes);

}  // namespace ef
