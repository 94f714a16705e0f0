// Datasets and iterators (tf.data): a dataset is an immutable description held in a variant
// scalar; an iterator over it is mutable state behind a resource handle.
#pragma once
#include <cxxabi.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "ops/registry.h"

namespace ef {

// DatasetCardinality's special values (tf.data.INFINITE_CARDINALITY / UNKNOWN_CARDINALITY).
constexpr int64_t kInfiniteCardinality = -1;
constexpr int64_t kUnknownCardinality = -2;

using Element = std::vector<Tensor>;  // one element's flat components

// One pass over a dataset. get_next is called by one thread at a time (the iterator resource's
// lock, or the prefetch thread that owns it).
class IteratorBase {
 public:
  virtual ~IteratorBase() = default;
  // Fills `out` with the next element; false at the end of the sequence (then again on every call).
  virtual bool get_next(Element& out) = 0;
  // Up to `max` next elements already stacked (one tensor per component, n rows each) for an
  // iterator that holds them so (a parallel map's chunks): returns n, 0 at the end of the
  // sequence, or -1 when the next element is not held stacked (then take it with get_next).
  virtual int64_t next_stacked(int64_t /*max*/, Element& /*out*/) { return -1; }
};

// Datasets are values: kernels build new ones from inputs and never change them, so one dataset
// may be iterated by several iterators (threads) at once.
class DatasetBase : public std::enable_shared_from_this<DatasetBase> {
 public:
  DatasetBase(std::vector<DType> dtypes, std::vector<Shape> shapes)
      : dtypes_(std::move(dtypes)), shapes_(std::move(shapes)) {}
  virtual ~DatasetBase() = default;

  const std::vector<DType>& dtypes() const { return dtypes_; }
  const std::vector<Shape>& shapes() const { return shapes_; }
  virtual int64_t cardinality() const = 0;
  // A fresh iterator; it keeps this dataset alive.
  virtual std::unique_ptr<IteratorBase> make_iterator() const = 0;
  // The tensors whose rows are this dataset's elements, when make_iterator() returns a
  // RowIterator (kernels/data/row_iterator.h); null otherwise.
  virtual const std::vector<Tensor>* row_source() const { return nullptr; }

 protected:
  template <typename T>
  std::shared_ptr<const T> self() const {
    return std::static_pointer_cast<const T>(shared_from_this());
  }

 private:
  std::vector<DType> dtypes_;
  std::vector<Shape> shapes_;
};

using DatasetPtr = std::shared_ptr<DatasetBase>;

// The state behind an iterator resource handle (AnonymousIteratorV3): MakeIterator installs the
// iterator, IteratorGetNext advances it under the lock.
struct IteratorResource {
  std::mutex mu;
  std::unique_ptr<IteratorBase> iterator;
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
};

// Input `i` as a dataset; InvalidArgument for any other tensor.
const DatasetBase& dataset_input(const KernelContext& c, size_t i);
DatasetPtr dataset_input_ptr(const KernelContext& c, size_t i);
// A scalar integer input (batch_size, count, buffer_size).
int64_t scalar_int_input(const KernelContext& c, size_t i, const char* name);
// The output_types / output_shapes attrs every dataset op carries.
std::vector<DType> output_types(const KernelContext& c);
std::vector<Shape> output_shapes(const KernelContext& c);
void set_dataset_output(KernelContext& c, DatasetPtr ds);

// Runs `wait` (a join, a condition wait) with the Python GIL released when the calling thread
// holds it, so a pipeline thread that needs the GIL (a py_function in a map) can finish. The
// bindings install the releaser; without one `wait` just runs.
void blocking_region(const std::function<void()>& wait);

// Raises the pending Ctrl-C (KeyboardInterrupt, or whatever Python's SIGINT handler raises) when
// called on the thread that runs Python's signal handlers; a no-op elsewhere and without Python.
void check_interrupt();
void set_check_interrupt_fn(void (*fn)());

// cv.wait(l, pred) for a consumer waiting on pipeline threads: it wakes every 50 ms to let
// Ctrl-C through (check_interrupt, with `l` released), since a C++ wait never returns to Python.
template <typename Pred>
void wait_interruptible(std::condition_variable& cv, std::unique_lock<std::mutex>& l, Pred pred) {
  while (!cv.wait_for(l, std::chrono::milliseconds(50), pred)) {
    l.unlock();
    check_interrupt();
    l.lock();
  }
}

// Pipeline threads (prefetch, parallel map) and interpreter exit. Each worker holds a
// WorkerScope while it runs; cancel_all_pipelines() (called from Python's atexit, while Python
// still runs) cancels every registered pipeline and waits for the workers to leave, so none is
// inside Python when it finalizes. After it, new workers are refused (Cancelled).
class Cancellable {
 public:
  virtual ~Cancellable() = default;
  virtual void cancel() = 0;
};
void register_pipeline(const std::shared_ptr<Cancellable>& c);
class WorkerScope {
 public:
  WorkerScope();
  ~WorkerScope();
  WorkerScope(const WorkerScope&) = delete;
  WorkerScope& operator=(const WorkerScope&) = delete;
};
// Throws Cancelled once the interpreter is exiting.
void check_not_exiting();
// Returns whether every worker left within the timeout.
bool cancel_all_pipelines(double timeout_seconds);

// A pipeline thread that Python ends at interpreter exit (it calls pthread_exit on a thread that
// asks for the GIL while finalizing) unwinds with abi::__forced_unwind: a handler that swallows
// everything would abort the process, so catch (...) in those threads comes after this.
#define EF_RETHROW_FORCED_UNWIND \
  catch (abi::__forced_unwind&) { throw; }
void set_blocking_region_fn(void (*fn)(const std::function<void()>&));

}  // namespace ef
