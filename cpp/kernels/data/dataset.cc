// Helpers shared by the dataset kernels: reading dataset inputs and attrs, the blocking hook.
#include "kernels/data/dataset.h"

#include <atomic>
#include <chrono>
#include <condition_variable>

#include <algorithm>

#include "core/errors.h"

namespace ef {

DatasetPtr dataset_input_ptr(const KernelContext& c, size_t i) {
  const Tensor& t = c.input(i);
  DatasetBase* ds = t->dtype() == DType::kVariant && t->rank() == 0 ? t->resource<DatasetBase>() : nullptr;
  if (!ds) throw_error(Code::kInvalidArgument, c.op.inputs[std::min(i, c.op.inputs.size() - 1)],
                       " must be a scalar variant tensor holding a dataset, got ", dtype_name(t->dtype()),
                       " tensor of shape ", t->shape().to_list_string());
  return ds->shared_from_this();
}

const DatasetBase& dataset_input(const KernelContext& c, size_t i) { return *dataset_input_ptr(c, i); }

int64_t scalar_int_input(const KernelContext& c, size_t i, const char* name) {
  const Tensor& t = c.input(i);
  if (t->rank() != 0) throw_error(Code::kInvalidArgument, name, " must be a scalar, got shape ", t->shape().to_list_string());
  return tensor_int_at(*t, 0);
}

std::vector<DType> output_types(const KernelContext& c) { return c.attrs.get<std::vector<DType>>("output_types", {}); }
std::vector<Shape> output_shapes(const KernelContext& c) { return c.attrs.get<std::vector<Shape>>("output_shapes", {}); }

void set_dataset_output(KernelContext& c, DatasetPtr ds) { c.set_output(0, TensorImpl::variant(std::move(ds))); }

namespace {
std::atomic<void (*)(const std::function<void()>&)>& blocking_fn() {
  static std::atomic<void (*)(const std::function<void()>&)> fn{nullptr};
  return fn;
}
}  // namespace

void blocking_region(const std::function<void()>& wait) {
  if (auto fn = blocking_fn().load()) {
    fn(wait);
  } else {
    wait();
  }
}

void set_blocking_region_fn(void (*fn)(const std::function<void()>&)) { blocking_fn().store(fn); }

namespace {
std::atomic<void (*)()>& interrupt_fn() {
  static std::atomic<void (*)()> fn{nullptr};
  return fn;
}
}  // namespace

void check_interrupt() {
  if (auto fn = interrupt_fn().load()) fn();
}

void set_check_interrupt_fn(void (*fn)()) { interrupt_fn().store(fn); }

namespace {
struct Pipelines {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::weak_ptr<Cancellable>> live;
  int64_t workers = 0;
  bool exiting = false;
};
Pipelines& pipelines() {
  static Pipelines* p = new Pipelines;  // never destroyed: workers may outlive static destruction
  return *p;
}
}  // namespace

void register_pipeline(const std::shared_ptr<Cancellable>& c) {
  Pipelines& p = pipelines();
  std::lock_guard<std::mutex> l(p.mu);
  p.live.erase(std::remove_if(p.live.begin(), p.live.end(), [](const auto& w) { return w.expired(); }), p.live.end());
  p.live.push_back(c);
}

WorkerScope::WorkerScope() {
  Pipelines& p = pipelines();
  std::lock_guard<std::mutex> l(p.mu);
  ++p.workers;
}

WorkerScope::~WorkerScope() {
  Pipelines& p = pipelines();
  {
    std::lock_guard<std::mutex> l(p.mu);
    --p.workers;
  }
  p.cv.notify_all();
}

void check_not_exiting() {
  Pipelines& p = pipelines();
  std::lock_guard<std::mutex> l(p.mu);
  if (p.exiting) throw_error(Code::kCancelled, "The tf.data pipeline was cancelled: the interpreter is exiting");
}

bool cancel_all_pipelines(double timeout_seconds) {
  Pipelines& p = pipelines();
  std::vector<std::shared_ptr<Cancellable>> live;
  {
    std::lock_guard<std::mutex> l(p.mu);
    p.exiting = true;
    for (auto& w : p.live)
      if (auto c = w.lock()) live.push_back(std::move(c));
    p.live.clear();
  }
  for (auto& c : live) c->cancel();
  live.clear();  // may destroy states whose iterators are gone
  bool done = false;
  blocking_region([&] {
    std::unique_lock<std::mutex> l(p.mu);
    done = p.cv.wait_for(l, std::chrono::duration<double>(timeout_seconds), [&] { return p.workers == 0; });
  });
  return done;
}

}  // namespace ef
