// parallel_for over a process-wide pool of worker threads; small ranges run inline.
#pragma once
#include <cstdint>
#include <functional>

namespace ef {

// Number of threads parallel_for may use (workers + the caller).
int num_threads();
void set_num_threads(int n);

// Splits [0, n) into contiguous chunks of at least `grain` items and calls fn(begin, end)
// on each, using the pool when there is more than one chunk. Blocks until all are done.
// Exceptions thrown by fn are rethrown in the caller (the first one wins).
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

// parallel_for with the range cut into up to kChunksPerThread chunks per thread (each at least
// `grain`), which the threads take from a shared counter: on a busy machine a thread the OS
// preempts holds the op up by one small chunk, not by half of it. For chunks whose results do not
// depend on where the range is cut (elementwise loops, disjoint outputs).
constexpr int kChunksPerThread = 8;
void parallel_for_balanced(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace ef
