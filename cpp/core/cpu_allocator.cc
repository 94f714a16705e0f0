// Large tensor buffers: mapped blocks in size classes, freed blocks cached for the next request of
// the class. Without the cache every large output (above glibc's mmap threshold) is a fresh
// mapping whose pages fault in zeroed on first write: `tf.add` of two 1e7 tensors spent more time
// faulting its 40 MB output than adding.
#include "core/cpu_allocator.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>
#if defined(__linux__)
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace ef {

namespace {

#if defined(__SANITIZE_ADDRESS__)
// ASan must see every allocation and free: plain aligned_alloc, nothing cached.
constexpr bool kMapped = false;
constexpr bool kCaching = false;
#elif defined(__linux__)
constexpr bool kMapped = true;
constexpr bool kCaching = true;
#else
constexpr bool kMapped = false;
constexpr bool kCaching = true;
#endif

constexpr size_t kPage = size_t(4) << 10;
// Blocks of 4 MiB and more are 2 MiB aligned and advised to use transparent huge pages (as NumPy
// does): one fault maps 2 MiB instead of 4 KiB and the TLB covers the block with few entries.
constexpr size_t kHugeThreshold = size_t(4) << 20;
constexpr size_t kHugeAlign = size_t(2) << 20;
constexpr size_t kStatsRound = 256;

size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

void* map_block(size_t size) {
  const size_t align = size >= kHugeThreshold ? kHugeAlign : kPage;
#if defined(__linux__)
  if (kMapped) {
    // Over-map by the alignment and unmap the ends: mmap only promises page alignment.
    const size_t len = size + (align > kPage ? align : 0);
    void* raw = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const uintptr_t a = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t start = round_up(a, align);
    if (start > a) munmap(raw, start - a);
    const size_t tail = a + len - (start + size);
    if (tail) munmap(reinterpret_cast<void*>(start + size), tail);
#if defined(MADV_HUGEPAGE)
    if (align == kHugeAlign) madvise(reinterpret_cast<void*>(start), size, MADV_HUGEPAGE);  // advice only
#endif
    return reinterpret_cast<void*>(start);
  }
#endif
  return std::aligned_alloc(align, size);
}

void unmap_block(void* p, size_t size) {
#if defined(__linux__)
  if (kMapped) {
    munmap(p, size);
    return;
  }
#endif
  (void)size;
  std::free(p);
}

// The default cache bound: 2 GiB, or an eighth of physical memory when that is less.
size_t default_cache_limit() {
  size_t limit = size_t(2) << 30;
#if defined(__linux__)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) limit = std::min(limit, size_t(pages) * size_t(page) / 8);
#endif
  return kCaching ? limit : 0;
}

// One mutex for all classes: a large block is worth far more work than a lock, and the
// allocating threads (ops, tf.data workers, the inter-op pool) share freed blocks across threads.
struct LargeBlockCache {
  struct Class {
    std::vector<void*> blocks;  // most recently freed last: its pages are the warmest
    uint64_t last_release = 0;
  };
  std::mutex mu;
  std::map<size_t, Class> classes;  // keyed by block size
  uint64_t clock = 0;
  size_t cached = 0;
  size_t limit = default_cache_limit();
  AllocatorStats stats;

  // Takes cached blocks out, the least recently released class first and its coldest block first,
  // until `cached + room <= limit`; the caller unmaps them outside the lock.
  void evict_for(size_t room, std::vector<std::pair<void*, size_t>>* out) {
    while (cached + room > limit && cached > 0) {
      auto victim = classes.end();
      for (auto it = classes.begin(); it != classes.end(); ++it) {
        if (!it->second.blocks.empty() &&
            (victim == classes.end() || it->second.last_release < victim->second.last_release))
          victim = it;
      }
      std::vector<void*>& blocks = victim->second.blocks;
      out->emplace_back(blocks.front(), victim->first);
      blocks.erase(blocks.begin());
      cached -= victim->first;
    }
  }
};

LargeBlockCache* g_cache = nullptr;

LargeBlockCache& cache() {
  static LargeBlockCache* c = [] {
    g_cache = new LargeBlockCache;  // never destroyed: buffers may outlive statics
#if defined(__linux__)
    // A fork while another thread holds the lock would leave the child's copy locked forever
    // (the fuzz tests fork workers while pipeline threads run): hold it across the fork.
    pthread_atfork([] { g_cache->mu.lock(); }, [] { g_cache->mu.unlock(); }, [] { g_cache->mu.unlock(); });
#endif
    return g_cache;
  }();
  return *c;
}

void unmap_all(const std::vector<std::pair<void*, size_t>>& blocks) {
  for (const auto& [p, size] : blocks) unmap_block(p, size);
}

}  // namespace

size_t large_block_size(size_t nbytes) {
  // Four classes per power of two: at most 25% more address space, and untouched tail pages
  // cost no memory. The classes let a request reuse a block of a slightly different size.
  const int lg = 63 - __builtin_clzll(static_cast<unsigned long long>(nbytes - 1));
  const size_t step = size_t(1) << (lg > 2 ? lg - 2 : 0);
  const size_t size = round_up(nbytes, step);
  return round_up(size, size >= kHugeThreshold ? kHugeAlign : kPage);
}

void* allocate_large_block(size_t nbytes) {
  const size_t size = large_block_size(nbytes);
  LargeBlockCache& c = cache();
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.classes.find(size);
    if (it != c.classes.end() && !it->second.blocks.empty()) {
      p = it->second.blocks.back();
      it->second.blocks.pop_back();
      c.cached -= size;
      ++c.stats.num_cache_hits;
    }
  }
  if (!p) {
    p = map_block(size);
    if (!p) {  // memory pressure: give the cache back to the system and try once more
      trim_cpu_allocator();
      p = map_block(size);
      if (!p) return nullptr;
    }
  }
  std::lock_guard<std::mutex> lock(c.mu);
  ++c.stats.num_allocs;
  c.stats.bytes_in_use += static_cast<int64_t>(round_up(nbytes, kStatsRound));
  if (c.stats.bytes_in_use > c.stats.peak_bytes_in_use) c.stats.peak_bytes_in_use = c.stats.bytes_in_use;
  return p;
}

void release_large_block(void* p, size_t nbytes) {
  const size_t size = large_block_size(nbytes);
  LargeBlockCache& c = cache();
  std::vector<std::pair<void*, size_t>> evicted;
  bool kept = false;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    c.stats.bytes_in_use -= static_cast<int64_t>(round_up(nbytes, kStatsRound));
    if (size <= c.limit) {
      c.evict_for(size, &evicted);
      LargeBlockCache::Class& cls = c.classes[size];
      cls.blocks.push_back(p);
      cls.last_release = ++c.clock;
      c.cached += size;
      kept = true;
    }
  }
  unmap_all(evicted);
  if (!kept) unmap_block(p, size);
}

AllocatorStats cpu_allocator_stats() {
  LargeBlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  AllocatorStats s = c.stats;
  s.bytes_cached = static_cast<int64_t>(c.cached);
  s.cache_limit = static_cast<int64_t>(c.limit);
  return s;
}

void reset_peak_bytes_in_use() {
  LargeBlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  c.stats.peak_bytes_in_use = c.stats.bytes_in_use;
}

size_t trim_cpu_allocator() {
  LargeBlockCache& c = cache();
  std::vector<std::pair<void*, size_t>> evicted;
  size_t freed;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    freed = c.cached;
    for (auto& [size, cls] : c.classes)
      for (void* p : cls.blocks) evicted.emplace_back(p, size);
    c.classes.clear();
    c.cached = 0;
  }
  unmap_all(evicted);
  return freed;
}

size_t set_cpu_allocator_cache_limit(size_t bytes) {
  LargeBlockCache& c = cache();
  std::vector<std::pair<void*, size_t>> evicted;
  size_t prev;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    prev = c.limit;
    c.limit = kCaching ? bytes : 0;
    c.evict_for(0, &evicted);
  }
  unmap_all(evicted);
  return prev;
}

}  // namespace ef
