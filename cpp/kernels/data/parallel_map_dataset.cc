// ParallelMapDatasetV2: num_parallel_calls worker threads apply `f` to consecutive chunks of input
// elements at once; the consumer receives the results in input order. Chunks (not single
// elements) keep the locking and wake-ups off the per-element cost: a chunk is sized to about
// kChunkNs of work from the time f took per element so far (one element for slow functions, so
// they still spread over the workers; up to kMaxChunk for cheap ones, whose per-chunk thread
// hand-offs would otherwise cost more than the work once the threads run on separate cores).
// A worker stacks its chunk's results into one tensor per component when they allow it (same
// dtype and shape, not strings or handles): the per-element tensors f made are then freed on the
// thread that made them, and the consumer takes rows of the stacked tensors (cross-thread frees of
// many small tensors serialize glibc's arena locks). Workers start on the first get_next
// and are cancelled and joined when the iterator is destroyed (waits release the GIL, see
// blocking_region).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <thread>

#include "core/errors.h"
#include "kernels/data/function_call.h"
#include "kernels/data/tensor_copy.h"

namespace ef {
namespace {

constexpr int64_t kAutotune = -1;
constexpr int64_t kMaxThreads = 64;
constexpr int64_t kChunkNs = 200000;
constexpr int64_t kMaxChunk = 4096;

class ParallelMapDataset final : public DatasetBase {
 public:
  ParallelMapDataset(DatasetPtr input, FunctionPtr f, std::vector<Tensor> captured, int64_t threads,
                     std::vector<DType> dtypes, std::vector<Shape> shapes)
      : DatasetBase(std::move(dtypes), std::move(shapes)), input_(std::move(input)), f_(std::move(f)),
        captured_(std::move(captured)), threads_(threads) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<ParallelMapDataset>());
  }

 private:
  // One chunk's results; after them the sequence may end (the input ended, or f raised
  // OutOfRange) or fail.
  struct Result {
    std::vector<Element> values;
    Element stacked;   // or the values stacked: one tensor per component, `rows` rows each
    int64_t rows = 0;
    bool end = false;
    std::exception_ptr error;
    size_t size() const { return rows > 0 ? static_cast<size_t>(rows) : values.size(); }
  };

  static bool stackable(const std::vector<Element>& values) {
    const Element& first = values[0];
    for (const Tensor& t : first) {
      const DType d = t->dtype();
      if (d == DType::kString || d == DType::kResource || d == DType::kVariant || t->is_symbolic()) return false;
    }
    for (const Element& e : values) {
      if (e.size() != first.size()) return false;
      for (size_t k = 0; k < e.size(); ++k)
        if (e[k]->dtype() != first[k]->dtype() || e[k]->shape() != first[k]->shape()) return false;
    }
    return true;
  }

  static void stack(Result& r) {
    const std::vector<Element>& values = r.values;
    const int64_t n = static_cast<int64_t>(values.size());
    for (size_t k = 0; k < values[0].size(); ++k) {
      Shape shape = values[0][k]->shape();
      shape.insert(0, n);
      Tensor t = TensorImpl::empty(values[0][k]->dtype(), shape);
      for (int64_t i = 0; i < n; ++i) copy_row(*t, i, *values[static_cast<size_t>(i)][k]);
      r.stacked.push_back(std::move(t));
    }
    r.rows = n;
    r.values.clear();
  }
  // Shared by the consumer and the workers, guarded by mu. Input is read under input_mu (one
  // worker at a time), so chunk k holds the input's elements k * kChunk, ... in order.
  struct State final : Cancellable {
    void cancel() override {
      {
        std::lock_guard<std::mutex> l(mu);
        cancelled = true;
      }
      stopping = true;
      cv.notify_all();
    }
    std::mutex mu, input_mu;
    std::condition_variable cv;
    std::unique_ptr<IteratorBase> input;
    bool input_done = false, cancelled = false;
    std::atomic<bool> stopping{false};  // `cancelled`, readable without mu: workers stop mid-chunk
    int64_t next_in = 0, next_out = 0;
    std::map<int64_t, Result> results;
    size_t capacity = 1;
    std::atomic<int64_t> chunk{1};  // elements per chunk, from the measured cost of f
  };

  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const ParallelMapDataset> ds) : ds_(std::move(ds)), state_(std::make_shared<State>()) {
      state_->input = ds_->input_->make_iterator();
      state_->capacity = static_cast<size_t>(2 * ds_->threads_);
    }
    ~Iterator() override {
      {
        std::lock_guard<std::mutex> l(state_->mu);
        state_->cancelled = true;
      }
      state_->stopping = true;
      state_->cv.notify_all();
      blocking_region([this] {
        for (std::thread& t : workers_) t.join();
      });
    }
    bool get_next(Element& out) override {
      while (next_value_ >= current_.size())
        if (!advance()) return false;
      if (current_.rows > 0) {
        out.clear();
        for (const Tensor& t : current_.stacked) out.push_back(slice_row(*t, static_cast<int64_t>(next_value_)));
        ++next_value_;
      } else {
        out = std::move(current_.values[next_value_++]);
      }
      return true;
    }
    // A batch after this map takes the stacked chunks' rows as views, a run at a time.
    int64_t next_stacked(int64_t max, Element& out) override {
      while (next_value_ >= current_.size())
        if (!advance()) return 0;
      if (current_.rows == 0) return -1;
      const int64_t n = std::min<int64_t>(max, current_.rows - static_cast<int64_t>(next_value_));
      rows_.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) rows_[static_cast<size_t>(i)] = static_cast<int64_t>(next_value_) + i;
      out.clear();
      for (const Tensor& t : current_.stacked) out.push_back(gather_rows(*t, rows_.data(), n));  // a view
      next_value_ += static_cast<size_t>(n);
      return n;
    }

   private:
    // Takes the next chunk's results as current_; false at the end (an error is raised).
    bool advance() {
      if (finished_) return false;
      if (current_.end || current_.error) return finish();
      if (workers_.empty()) {
        check_not_exiting();
        register_pipeline(state_);
        for (int64_t k = 0; k < ds_->threads_; ++k) workers_.emplace_back(run, ds_, state_);
      }
      bool cancelled = false;
      blocking_region([&] {
        std::unique_lock<std::mutex> l(state_->mu);
        wait_interruptible(state_->cv, l, [&] { return state_->results.count(state_->next_out) > 0 || state_->cancelled; });
        auto it = state_->results.find(state_->next_out);
        if (it == state_->results.end()) {
          cancelled = true;
          return;
        }
        current_ = std::move(it->second);
        state_->results.erase(it);
        ++state_->next_out;
      });
      state_->cv.notify_all();
      if (cancelled) throw_error(Code::kCancelled, "The tf.data pipeline was cancelled: the interpreter is exiting");
      next_value_ = 0;
      return true;
    }

    static void run(std::shared_ptr<const ParallelMapDataset> ds, std::shared_ptr<State> s) {
      WorkerScope scope;
      std::unique_ptr<FunctionCall> call;
      std::exception_ptr setup_error;
      try {
        call = std::make_unique<FunctionCall>(ds->f_, ds->captured_);
      } EF_RETHROW_FORCED_UNWIND catch (...) {
        setup_error = std::current_exception();
      }
      for (;;) {
        {
          std::unique_lock<std::mutex> l(s->mu);
          s->cv.wait(l, [&] {
            return s->cancelled || s->input_done || s->next_in - s->next_out < static_cast<int64_t>(s->capacity);
          });
          if (s->cancelled || s->input_done) return;
        }
        std::vector<Element> in;
        int64_t seq = 0;
        bool input_end = false;
        Result r;
        {
          std::lock_guard<std::mutex> il(s->input_mu);
          {
            std::lock_guard<std::mutex> l(s->mu);
            if (s->cancelled || s->input_done) return;
            seq = s->next_in++;
          }
          if (setup_error) r.error = setup_error;
          const size_t chunk = static_cast<size_t>(s->chunk.load(std::memory_order_relaxed));
          while (!r.error && in.size() < chunk) {
            Element e;
            bool got = false;
            try {
              got = s->input->get_next(e);
            } EF_RETHROW_FORCED_UNWIND catch (...) {
              r.error = std::current_exception();
            }
            if (!got) {
              input_end = !r.error;
              break;
            }
            in.push_back(std::move(e));
          }
          if (input_end || r.error) {
            std::lock_guard<std::mutex> l(s->mu);
            s->input_done = true;  // no later chunk is handed out
          }
        }
        std::exception_ptr input_error = r.error;
        r.error = nullptr;
        const auto start = std::chrono::steady_clock::now();
        for (Element& e : in) {
          if (s->stopping.load(std::memory_order_relaxed)) return;  // nobody will take this chunk
          Element value;
          try {
            call->run(std::move(e), value);
            if (value.size() != ds->dtypes().size())
              throw_error(Code::kInvalidArgument, "The map function returned ", value.size(), " values, expected ",
                          ds->dtypes().size());
          } catch (const OpError& err) {
            if (err.code() == Code::kOutOfRange) {
              r.end = true;  // TF's rule: a function raising OutOfRange ends the sequence
            } else {
              r.error = std::current_exception();
            }
          } EF_RETHROW_FORCED_UNWIND catch (...) {
            r.error = std::current_exception();
          }
          if (r.end || r.error) break;
          r.values.push_back(std::move(value));
        }
        if (!r.values.empty()) {
          const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now() - start).count();
          const int64_t per = std::max<int64_t>(1, ns / static_cast<int64_t>(r.values.size()));
          s->chunk.store(std::clamp<int64_t>(kChunkNs / per, 1, kMaxChunk), std::memory_order_relaxed);
          if (r.values.size() > 1 && stackable(r.values)) stack(r);
        }
        if (!r.end && !r.error) {
          r.error = input_error;
          r.end = input_end;
        }
        {
          std::lock_guard<std::mutex> l(s->mu);
          s->results.emplace(seq, std::move(r));
        }
        s->cv.notify_all();
      }
    }
    bool finish() {
      finished_ = true;
      if (current_.error) std::rethrow_exception(current_.error);
      return false;
    }
    std::shared_ptr<const ParallelMapDataset> ds_;
    std::shared_ptr<State> state_;
    std::vector<std::thread> workers_;
    Result current_;
    size_t next_value_ = 0;
    std::vector<int64_t> rows_;
    bool finished_ = false;
  };

  DatasetPtr input_;
  FunctionPtr f_;
  std::vector<Tensor> captured_;
  int64_t threads_;
};

void parallel_map_kernel(KernelContext& c) {
  const size_t end = c.inputs.size() - 1;
  int64_t n = scalar_int_input(c, end, "num_parallel_calls");
  if (n <= 0 && n != kAutotune)
    throw_error(Code::kInvalidArgument, "num_parallel_calls must be greater than zero or AUTOTUNE");
  if (n == kAutotune) n = std::max(1u, std::thread::hardware_concurrency());
  n = std::min(n, kMaxThreads);
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.begin() + end);
  set_dataset_output(c, std::make_shared<ParallelMapDataset>(dataset_input_ptr(c, 0), dataset_function_attr(c, "f"),
                                                              std::move(captured), n, output_types(c),
                                                              output_shapes(c)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("ParallelMapDatasetV2", parallel_map_kernel);

}  // namespace ef
