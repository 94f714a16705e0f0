// ParallelInterleaveDatasetV4: interleave whose cycle elements are iterated by worker threads, one
// per open element, each filling a buffer of up to buffer_output_elements ahead; the consumer takes
// elements in interleave's order (cycle_length elements open, block_length from each in turn), so
// the output is deterministic whatever `deterministic` says. The function that opens each element
// runs on the consumer's thread. Threads follow the prefetch rules (blocking_region, WorkerScope,
// cancelled and joined with the iterator).
#include <deque>
#include <exception>
#include <thread>

#include "core/errors.h"
#include "kernels/data/function_call.h"

namespace ef {
namespace {

constexpr int64_t kAutotune = -1;

class ParallelInterleaveDataset final : public DatasetBase {
 public:
  ParallelInterleaveDataset(DatasetPtr input, FunctionPtr f, std::vector<Tensor> captured, int64_t cycle_length,
                            int64_t block_length, size_t buffer, std::vector<DType> dtypes, std::vector<Shape> shapes)
      : DatasetBase(std::move(dtypes), std::move(shapes)), input_(std::move(input)), f_(std::move(f)),
        captured_(std::move(captured)), cycle_length_(cycle_length), block_length_(block_length), buffer_(buffer) {}
  int64_t cardinality() const override { return kUnknownCardinality; }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<ParallelInterleaveDataset>());
  }

 private:
  // One open cycle element: its iterator (owned by its worker) and what the worker read ahead.
  struct Slot {
    std::unique_ptr<IteratorBase> it;
    std::deque<Element> buffer;
    bool done = false;
    std::exception_ptr error;
    std::thread worker;
  };
  struct State final : Cancellable {
    void cancel() override {
      {
        std::lock_guard<std::mutex> l(mu);
        cancelled = true;
      }
      cv.notify_all();
    }
    std::mutex mu;  // guards every slot's buffer / done / error, and cancelled
    std::condition_variable cv;
    bool cancelled = false;
    size_t capacity = 1;
  };

  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const ParallelInterleaveDataset> ds)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()), call_(ds_->f_, ds_->captured_),
          cycle_(static_cast<size_t>(ds_->cycle_length_)), state_(std::make_shared<State>()) {
      state_->capacity = ds_->buffer_;
    }
    ~Iterator() override {
      state_->cancel();
      blocking_region([this] {
        for (auto& s : cycle_)
          if (s && s->worker.joinable()) s->worker.join();
      });
    }
    bool get_next(Element& out) override {
      while (input_ || open_ > 0) {
        std::shared_ptr<Slot>& slot = cycle_[index_];
        if (slot) {
          bool got = false, cancelled = false;
          blocking_region([&] {
            std::unique_lock<std::mutex> l(state_->mu);
            wait_interruptible(state_->cv, l, [&] { return !slot->buffer.empty() || slot->done || state_->cancelled; });
            if (!slot->buffer.empty()) {
              out = std::move(slot->buffer.front());
              slot->buffer.pop_front();
              got = true;
            } else {
              cancelled = !slot->done;
            }
          });
          if (cancelled) throw_error(Code::kCancelled, "The tf.data pipeline was cancelled: the interpreter is exiting");
          if (got) {
            state_->cv.notify_all();
            if (++block_ == ds_->block_length_) advance();
            return true;
          }
          std::shared_ptr<Slot> finished = std::move(slot);
          --open_;
          advance();
          blocking_region([&] { finished->worker.join(); });
          if (finished->error) std::rethrow_exception(finished->error);
        } else if (input_) {
          Element args;
          if (!input_->get_next(args)) {
            input_.reset();
            continue;
          }
          Element r;
          call_.run(std::move(args), r);
          DatasetPtr inner = returned_dataset(r, "interleave");
          if (inner->dtypes() != ds_->dtypes())
            throw_error(Code::kInvalidArgument, "The dataset the function returned has other element types than declared");
          auto s = std::make_shared<Slot>();
          s->it = inner->make_iterator();
          check_not_exiting();
          register_pipeline(state_);
          s->worker = std::thread(run, state_, s);
          slot = std::move(s);
          ++open_;
        } else {
          advance();
        }
      }
      return false;
    }

   private:
    static void run(std::shared_ptr<State> state, std::shared_ptr<Slot> slot) {
      WorkerScope scope;
      for (;;) {
        {
          std::unique_lock<std::mutex> l(state->mu);
          state->cv.wait(l, [&] { return state->cancelled || slot->buffer.size() < state->capacity; });
          if (state->cancelled) return;
        }
        Element e;
        bool ok = false;
        std::exception_ptr error;
        try {
          ok = slot->it->get_next(e);
        } EF_RETHROW_FORCED_UNWIND catch (...) {
          error = std::current_exception();
        }
        {
          std::lock_guard<std::mutex> l(state->mu);
          if (ok) {
            slot->buffer.push_back(std::move(e));
          } else {
            slot->done = true;
            slot->error = error;
          }
        }
        state->cv.notify_all();
        if (!ok) {
          slot->it.reset();  // the inner pipeline's own threads stop here, off the consumer's thread
          return;
        }
      }
    }
    void advance() {
      block_ = 0;
      index_ = (index_ + 1) % cycle_.size();
    }
    std::shared_ptr<const ParallelInterleaveDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    FunctionCall call_;
    std::vector<std::shared_ptr<Slot>> cycle_;
    std::shared_ptr<State> state_;
    size_t index_ = 0;
    int64_t block_ = 0, open_ = 0;
  };
  DatasetPtr input_;
  FunctionPtr f_;
  std::vector<Tensor> captured_;
  int64_t cycle_length_, block_length_;
  size_t buffer_;
};

void parallel_interleave_kernel(KernelContext& c) {
  const size_t n = c.inputs.size();  // ..., cycle_length, block_length, buffer_output_elements,
                                     // prefetch_input_elements, num_parallel_calls
  int64_t cycle_length = scalar_int_input(c, n - 5, "cycle_length");
  const int64_t block_length = scalar_int_input(c, n - 4, "block_length");
  int64_t buffer = scalar_int_input(c, n - 3, "buffer_output_elements");
  const int64_t prefetch = scalar_int_input(c, n - 2, "prefetch_input_elements");
  const int64_t calls = scalar_int_input(c, n - 1, "num_parallel_calls");
  const int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  if (cycle_length <= 0 && cycle_length != kAutotune)
    throw_error(Code::kInvalidArgument, "`cycle_length` must be `tf.data.AUTOTUNE` or greater than 0 but is ",
                cycle_length);
  if (block_length <= 0) throw_error(Code::kInvalidArgument, "block_length must be greater than zero.");
  if (cycle_length > 1024) throw_error(Code::kInvalidArgument, "cycle_length is too large: ", cycle_length);
  if (buffer == kAutotune) buffer = std::max<int64_t>(block_length, 8);
  if (buffer <= 0) throw_error(Code::kInvalidArgument, "`buffer_output_elements` must be greater than zero or AUTOTUNE.");
  if (prefetch < 0 && prefetch != kAutotune)
    throw_error(Code::kInvalidArgument, "`prefetch_input_elements` must be greater than or equal to zero or AUTOTUNE.");
  if (calls <= 0 && calls != kAutotune)
    throw_error(Code::kInvalidArgument, "num_parallel_calls must be greater than zero.");
  if (cycle_length != kAutotune && calls > cycle_length)
    throw_error(Code::kInvalidArgument, "If `cycle_length` is set to a fixed value, `num_parallel_calls` must be "
                "either `tf.data.AUTOTUNE` or a value less than or equal to `cycle_length`. However, "
                "`num_parallel_calls` is ", calls, " and `cycle_length` is ", cycle_length);
  if (cycle_length == kAutotune) cycle_length = cores;
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.begin() + (n - 5));
  set_dataset_output(c, std::make_shared<ParallelInterleaveDataset>(
                            dataset_input_ptr(c, 0), dataset_function_attr(c, "f"), std::move(captured), cycle_length,
                            block_length, static_cast<size_t>(buffer), output_types(c), output_shapes(c)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("ParallelInterleaveDatasetV4", parallel_interleave_kernel);

}  // namespace ef
