// C++ unit tests of the large-block CPU allocator: size classes, reuse, trim, statistics, threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "core/buffer.h"
#include "core/cpu_allocator.h"

namespace ef {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCaches = false;  // ASan sees every allocation: nothing is cached
#else
constexpr bool kCaches = true;
#endif

TEST(CpuAllocator, SizeClasses) {
  EXPECT_EQ(large_block_size(kLargeBlockMin), kLargeBlockMin);
  EXPECT_EQ(large_block_size(kLargeBlockMin + 4), kLargeBlockMin * 5 / 4);
  EXPECT_EQ(large_block_size(40'000'000), size_t(40) << 20);  // 4 classes per power of two
  EXPECT_EQ(large_block_size(size_t(5) << 20), size_t(6) << 20);  // 2 MiB multiples from 4 MiB up
  for (size_t n : {size_t(300000), size_t(3) << 20, size_t(123456789)}) {
    EXPECT_GE(large_block_size(n), n);
    EXPECT_LE(large_block_size(n), n + n / 4 + (size_t(2) << 20));
  }
}

TEST(CpuAllocator, ReusesFreedBlocksAndTrims) {
  trim_cpu_allocator();
  const size_t n = size_t(3) << 20;
  void* p = allocate_large_block(n);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  std::memset(p, 1, n);
  AllocatorStats before = cpu_allocator_stats();
  EXPECT_GE(before.bytes_in_use, int64_t(n));
  release_large_block(p, n);
  AllocatorStats freed = cpu_allocator_stats();
  EXPECT_EQ(freed.bytes_in_use, before.bytes_in_use - int64_t(n));
  EXPECT_EQ(freed.bytes_cached, kCaches ? int64_t(large_block_size(n)) : 0);
  void* q = allocate_large_block(n - 4096);  // same class
  AllocatorStats again = cpu_allocator_stats();
  EXPECT_EQ(again.num_cache_hits - freed.num_cache_hits, kCaches ? 1 : 0);
  if (kCaches) {
    EXPECT_EQ(q, p);
  }
  release_large_block(q, n - 4096);
  EXPECT_EQ(trim_cpu_allocator(), kCaches ? large_block_size(n) : 0);
  EXPECT_EQ(cpu_allocator_stats().bytes_cached, 0);
}

TEST(CpuAllocator, PeakAndReset) {
  const size_t n = size_t(1) << 20;
  reset_peak_bytes_in_use();
  const int64_t base = cpu_allocator_stats().bytes_in_use;
  void* a = allocate_large_block(n);
  void* b = allocate_large_block(n);
  release_large_block(a, n);
  release_large_block(b, n);
  AllocatorStats s = cpu_allocator_stats();
  EXPECT_EQ(s.bytes_in_use, base);
  EXPECT_EQ(s.peak_bytes_in_use, base + 2 * int64_t(n));
  reset_peak_bytes_in_use();
  EXPECT_EQ(cpu_allocator_stats().peak_bytes_in_use, base);
}

TEST(CpuAllocator, CacheLimitEvicts) {
  trim_cpu_allocator();
  const size_t prev = set_cpu_allocator_cache_limit(size_t(7) << 20);
  const size_t n = size_t(3) << 20;
  void* a = allocate_large_block(n);
  void* b = allocate_large_block(n);
  void* c = allocate_large_block(n);
  release_large_block(a, n);
  release_large_block(b, n);
  release_large_block(c, n);  // two 3 MiB blocks fit under 7 MiB: the coldest (a) goes
  EXPECT_EQ(cpu_allocator_stats().bytes_cached, kCaches ? int64_t(6) << 20 : 0);
  void* warm = allocate_large_block(n);
  if (kCaches) {
    EXPECT_EQ(warm, c);  // the most recently released block comes back first
  }
  release_large_block(warm, n);
  set_cpu_allocator_cache_limit(0);
  EXPECT_EQ(cpu_allocator_stats().bytes_cached, 0);
  set_cpu_allocator_cache_limit(prev);
}

// Threads allocate and free mixed sizes (small and large buffers); each writes its own pattern and
// checks every live buffer of its own before freeing it: no block is ever handed out twice.
TEST(CpuAllocator, ThreadsNeverShareLiveBlocks) {
  const std::vector<int64_t> sizes = {1000, 70000, 65536, 100000, 300000, 1 << 18, 700000};
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::vector<std::pair<std::shared_ptr<Buffer>, uint32_t>> live;
      for (int i = 0; i < 100; ++i) {
        const int64_t count = sizes[rng() % sizes.size()];
        auto b = Buffer::allocate(DType::kInt32, count);
        const uint32_t tag = uint32_t(t) << 24 | uint32_t(i);
        auto* d = static_cast<uint32_t*>(b->data());
        for (int64_t k = 0; k < count; ++k) d[k] = tag;
        live.emplace_back(std::move(b), tag);
        if (live.size() > 4 || rng() % 2) {
          const size_t victim = rng() % live.size();
          auto* v = static_cast<const uint32_t*>(live[victim].first->data());
          const int64_t c = int64_t(live[victim].first->nbytes() / 4);
          for (int64_t k = 0; k < c; ++k) failures[t] += v[k] != live[victim].second;
          live.erase(live.begin() + int64_t(victim));
        }
      }
      for (auto& [b, tag] : live) {
        auto* v = static_cast<const uint32_t*>(b->data());
        for (size_t k = 0; k < b->nbytes() / 4; ++k) failures[t] += v[k] != tag;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace
}  // namespace ef
