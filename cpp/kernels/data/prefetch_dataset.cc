// PrefetchDataset: a background thread fills a buffer of up to buffer_size elements ahead of the
// consumer. The thread starts on the first get_next and is cancelled and joined when the iterator
// is destroyed; waits release the GIL (blocking_region) so a GIL-taking function in the pipeline
// cannot deadlock against the consumer.
#include <condition_variable>
#include <deque>
#include <exception>
#include <thread>

#include "core/errors.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

constexpr int64_t kAutotune = -1;
constexpr size_t kAutotuneBuffer = 8;

class PrefetchDataset final : public DatasetBase {
 public:
  PrefetchDataset(DatasetPtr input, size_t capacity)
      : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)), capacity_(capacity) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    if (capacity_ == 0) return input_->make_iterator();  // prefetch(0): nothing ahead
    return std::make_unique<Iterator>(input_->make_iterator(), capacity_);
  }

 private:
  // Shared by the consumer and the worker; the worker touches `input` only.
  struct State final : Cancellable {
    void cancel() override {
      {
        std::lock_guard<std::mutex> l(mu);
        cancelled = true;
      }
      cv.notify_all();
    }
    std::mutex mu;
    std::condition_variable cv;
    std::deque<Element> buffer;
    bool done = false, cancelled = false;
    std::exception_ptr error;
    std::unique_ptr<IteratorBase> input;
    size_t capacity = 1;
  };

  class Iterator final : public IteratorBase {
   public:
    Iterator(std::unique_ptr<IteratorBase> input, size_t capacity) : state_(std::make_shared<State>()) {
      state_->input = std::move(input);
      state_->capacity = capacity;
    }
    ~Iterator() override {
      {
        std::lock_guard<std::mutex> l(state_->mu);
        state_->cancelled = true;
      }
      state_->cv.notify_all();
      if (worker_.joinable()) blocking_region([this] { worker_.join(); });
    }
    bool get_next(Element& out) override {
      if (!worker_.joinable()) {
        check_not_exiting();
        register_pipeline(state_);
        worker_ = std::thread(run, state_);
      }
      bool got = false, cancelled = false;
      std::exception_ptr error;
      blocking_region([&] {  // the GIL is released before the lock is taken and retaken after it is dropped
        std::unique_lock<std::mutex> l(state_->mu);
        wait_interruptible(state_->cv, l, [&] { return !state_->buffer.empty() || state_->done || state_->cancelled; });
        if (!state_->buffer.empty()) {
          out = std::move(state_->buffer.front());
          state_->buffer.pop_front();
          got = true;
        } else {
          error = state_->error;
          cancelled = !state_->done;
        }
      });
      state_->cv.notify_all();
      if (cancelled) throw_error(Code::kCancelled, "The tf.data pipeline was cancelled: the interpreter is exiting");
      if (error) std::rethrow_exception(error);
      return got;
    }

   private:
    static void run(std::shared_ptr<State> s) {
      WorkerScope scope;
      for (;;) {
        {
          std::unique_lock<std::mutex> l(s->mu);
          s->cv.wait(l, [&] { return s->cancelled || s->buffer.size() < s->capacity; });
          if (s->cancelled) return;
        }
        Element e;
        bool ok = false;
        std::exception_ptr error;
        try {
          ok = s->input->get_next(e);
        } EF_RETHROW_FORCED_UNWIND catch (...) {
          error = std::current_exception();
        }
        {
          std::lock_guard<std::mutex> l(s->mu);
          if (ok) {
            s->buffer.push_back(std::move(e));
          } else {
            s->done = true;
            s->error = error;
          }
        }
        s->cv.notify_all();
        if (!ok) return;
      }
    }
    std::shared_ptr<State> state_;
    std::thread worker_;
  };

  DatasetPtr input_;
  size_t capacity_;
};

void prefetch_kernel(KernelContext& c) {
  const int64_t n = scalar_int_input(c, 1, "buffer_size");
  if (n < 0 && n != kAutotune)
    throw_error(Code::kInvalidArgument, "buffer_size must be >= 0 or set buffer_size to be ", kAutotune, " for auto-tuning");
  const size_t capacity = n == kAutotune ? kAutotuneBuffer : static_cast<size_t>(n);
  set_dataset_output(c, std::make_shared<PrefetchDataset>(dataset_input_ptr(c, 0), capacity));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("PrefetchDataset", prefetch_kernel);

}  // namespace ef
