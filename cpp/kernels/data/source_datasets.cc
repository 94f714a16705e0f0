// Source datasets: TensorSliceDataset (rows of tensors), TensorDataset (one element) and
// RangeDataset (an arithmetic sequence).
#include <cstdint>

#include "core/errors.h"
#include "kernels/data/dataset.h"
#include "kernels/data/row_iterator.h"

namespace ef {
namespace {

std::vector<DType> dtypes_of(const std::vector<Tensor>& ts) {
  std::vector<DType> out;
  for (const Tensor& t : ts) out.push_back(t->dtype());
  return out;
}

std::vector<Shape> shapes_of(const std::vector<Tensor>& ts, bool rows) {
  std::vector<Shape> out;
  for (const Tensor& t : ts) {
    Shape s = t->shape();
    if (rows) s.erase(0);
    out.push_back(s);
  }
  return out;
}

class TensorSliceDataset final : public DatasetBase {
 public:
  explicit TensorSliceDataset(std::vector<Tensor> components)
      : DatasetBase(dtypes_of(components), shapes_of(components, true)), components_(std::move(components)) {}
  int64_t cardinality() const override { return components_[0]->shape()[0]; }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<TensorSliceDataset>());
  }
  const std::vector<Tensor>* row_source() const override { return &components_; }

 private:
  class Iterator final : public RowIterator {
   public:
    explicit Iterator(std::shared_ptr<const TensorSliceDataset> ds) : RowIterator(ds->components_), ds_(std::move(ds)) {}
    bool next_row(int64_t& row) override {
      if (i_ >= ds_->cardinality()) return false;
      row = i_++;
      return true;
    }

   private:
    std::shared_ptr<const TensorSliceDataset> ds_;
    int64_t i_ = 0;
  };
  std::vector<Tensor> components_;
};

class TensorDataset final : public DatasetBase {
 public:
  explicit TensorDataset(std::vector<Tensor> components)
      : DatasetBase(dtypes_of(components), shapes_of(components, false)), components_(std::move(components)) {}
  int64_t cardinality() const override { return 1; }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<TensorDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const TensorDataset> ds) : ds_(std::move(ds)) {}
    bool get_next(Element& out) override {
      if (done_) return false;
      out = ds_->components_;  // tensors are immutable: the element shares them
      done_ = true;
      return true;
    }

   private:
    std::shared_ptr<const TensorDataset> ds_;
    bool done_ = false;
  };
  std::vector<Tensor> components_;
};

// Values start + i * step for i < count; computed in unsigned arithmetic, exact for every value in range.
class RangeDataset final : public DatasetBase {
 public:
  RangeDataset(int64_t start, int64_t stop, int64_t step, DType dtype)
      : DatasetBase({dtype}, {Shape()}), start_(start), step_(step), count_(count(start, stop, step)) {}
  int64_t cardinality() const override { return count_; }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<RangeDataset>()); }

 private:
  static int64_t count(int64_t start, int64_t stop, int64_t step) {
    if (step > 0 ? start >= stop : start <= stop) return 0;
    const uint64_t span = step > 0 ? uint64_t(stop) - uint64_t(start) : uint64_t(start) - uint64_t(stop);
    const uint64_t mag = step > 0 ? uint64_t(step) : uint64_t(0) - uint64_t(step);
    return static_cast<int64_t>((span - 1) / mag + 1);
  }
  Tensor value(int64_t i) const {
    const int64_t v = static_cast<int64_t>(uint64_t(start_) + uint64_t(i) * uint64_t(step_));
    switch (dtypes()[0]) {
      case DType::kInt32: return TensorImpl::scalar<int32_t>(static_cast<int32_t>(v));
      case DType::kFloat32: return TensorImpl::scalar<float>(static_cast<float>(v));
      case DType::kFloat64: return TensorImpl::scalar<double>(static_cast<double>(v));
      default: return TensorImpl::scalar<int64_t>(v);
    }
  }
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const RangeDataset> ds) : ds_(std::move(ds)) {}
    bool get_next(Element& out) override {
      if (i_ >= ds_->count_) return false;
      out.assign(1, ds_->value(i_++));
      return true;
    }

   private:
    std::shared_ptr<const RangeDataset> ds_;
    int64_t i_ = 0;
  };
  int64_t start_, step_, count_;
};

void tensor_slice_kernel(KernelContext& c) {
  if (c.inputs.empty()) throw_error(Code::kInvalidArgument, "TensorSliceDataset needs at least one component");
  int64_t n = -1;
  for (const Tensor& t : c.inputs) {
    if (t->rank() < 1) throw_error(Code::kInvalidArgument, "All components must be at least 1-dimensional");
    if (n >= 0 && t->shape()[0] != n)
      throw_error(Code::kInvalidArgument, "All components must have the same size in the 0th dimension");
    n = t->shape()[0];
  }
  set_dataset_output(c, std::make_shared<TensorSliceDataset>(c.inputs));
}

void tensor_kernel(KernelContext& c) { set_dataset_output(c, std::make_shared<TensorDataset>(c.inputs)); }

void range_kernel(KernelContext& c) {
  const int64_t start = scalar_int_input(c, 0, "start"), stop = scalar_int_input(c, 1, "stop"),
                step = scalar_int_input(c, 2, "step");
  if (step == 0) throw_error(Code::kInvalidArgument, "step must be a non-zero integer.");
  std::vector<DType> types = output_types(c);
  const DType dtype = types.size() == 1 ? types[0] : DType::kInt64;
  if (dtype != DType::kInt32 && dtype != DType::kInt64 && dtype != DType::kFloat32 && dtype != DType::kFloat64)
    throw_error(Code::kInvalidArgument, "RangeDataset does not support output type ", dtype_name(dtype));
  set_dataset_output(c, std::make_shared<RangeDataset>(start, stop, step, dtype));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("TensorSliceDataset", tensor_slice_kernel);
EF_REGISTER_CPU_KERNEL("TensorDataset", tensor_kernel);
EF_REGISTER_CPU_KERNEL("RangeDataset", range_kernel);

}  // namespace ef
