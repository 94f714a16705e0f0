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

}  // namespace ef
