// A small fixed thread pool; the calling thread takes a chunk too, so 2 cores use 1 worker.
#include "core/threadpool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ef {

namespace {

// Waking a sleeping thread (futex + context switch) costs several microseconds, as much as a
// small kernel: a worker that just finished spins briefly for the next region (ops of a step
// come back to back), and the caller spins briefly for the workers before it blocks.
// Eager Python between two ops outlasts that spin, so the waiter then yields instead of blocking
// for a while longer: it stays quick to wake but gives the core to any other runnable thread. On a
// 2-core machine this cut the eager MLP and dense steps' median wall time by 10-20%.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr auto kYieldSpin = std::chrono::microseconds(1000);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

template <class Pred>
bool spin_until(Pred pred) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (pred()) return true;
    cpu_relax();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) break;
  }
  for (const auto yield_until = until + kYieldSpin; std::chrono::steady_clock::now() < yield_until;) {
    if (pred()) return true;
    std::this_thread::yield();
  }
  return false;
}

class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  int workers() const { return static_cast<int>(threads_.size()); }

  void run(int64_t chunks, const std::function<void(int64_t)>& job) {
    std::unique_lock<std::mutex> run_lock(run_mu_);  // one parallel region at a time
    std::exception_ptr error;
    std::mutex err_mu;
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> done{0};
    auto body = [&] {
      for (int64_t c; (c = next.fetch_add(1)) < chunks;) {
        try {
          job(c);
        } catch (...) {
          std::lock_guard<std::mutex> l(err_mu);
          if (!error) error = std::current_exception();
        }
        done.fetch_add(1);
      }
    };
    const std::function<void()> task = body;
    {
      std::lock_guard<std::mutex> l(mu_);
      task_ = &task;  // this frame outlives every worker's use (see below)
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    body();
    auto finished = [&] { return done.load() == chunks && active_.load() == 0; };
    spin_until(finished);
    {
      // Checked again under the lock: a worker takes the task (and counts itself in active_) only
      // under it, so none can start the task (which points into this frame) after it is cleared.
      std::unique_lock<std::mutex> l(mu_);
      done_cv_.wait(l, finished);
      task_ = nullptr;
    }
    if (error) std::rethrow_exception(error);
  }

 private:
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
      const std::function<void()>* task = nullptr;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return stop_ || (generation_.load() != seen && task_); });
        if (stop_) return;
        seen = generation_.load();
        task = task_;
        active_.fetch_add(1);
      }
      (*task)();
      {
        std::lock_guard<std::mutex> l(mu_);  // pairs with the caller's predicate check
        active_.fetch_sub(1);
      }
      done_cv_.notify_all();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mu_, run_mu_;
  std::condition_variable cv_, done_cv_;
  const std::function<void()>* task_ = nullptr;  // the running region's body (the caller's frame)
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> active_{0};
  bool stop_ = false;
};

std::atomic<int> g_threads{0};
thread_local bool t_in_parallel = false;  // nested regions run inline, never deadlock

Pool& pool() {
  static Pool* p = new Pool(std::max(1u, std::thread::hardware_concurrency()) - 1);  // leaked on purpose:
  return *p;  // joining threads during interpreter teardown can deadlock
}

}  // namespace

int num_threads() {
  int n = g_threads.load();
  return n > 0 ? n : pool().workers() + 1;
}

void set_num_threads(int n) { g_threads.store(n); }

namespace {

constexpr int64_t kAlign = 64;

void run_chunks(int64_t n, int64_t grain, int64_t max_chunks, bool align,
                const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t chunks = std::min<int64_t>(max_chunks, (n + grain - 1) / grain);
  if (chunks <= 1 || t_in_parallel) {
    fn(0, n);
    return;
  }
  int64_t per = (n + chunks - 1) / chunks;
  // Balanced chunks start at multiples of 64 items: a vectorized loop then leaves its scalar tail
  // (whose math may round differently) at the same elements however the range is cut.
  if (align && per >= kAlign) per = (per + kAlign - 1) / kAlign * kAlign;
  pool().run(chunks, [&](int64_t c) {
    int64_t b = c * per, e = std::min(n, b + per);
    if (b >= e) return;
    bool was = t_in_parallel;
    t_in_parallel = true;
    try {
      fn(b, e);
    } catch (...) {
      t_in_parallel = was;
      throw;
    }
    t_in_parallel = was;
  });
}

int64_t usable_threads() { return std::min<int64_t>(num_threads(), pool().workers() + 1); }

}  // namespace

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  run_chunks(n, grain, usable_threads(), false, fn);
}

void parallel_for_balanced(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  const int64_t threads = usable_threads();
  run_chunks(n, grain, threads > 1 ? threads * kChunksPerThread : 1, true, fn);
}

}  // namespace ef
