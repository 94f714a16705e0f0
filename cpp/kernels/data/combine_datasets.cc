// Datasets over several inputs: ConcatenateDataset (one after the other) and ZipDataset (their
// elements side by side, ending with the shortest).
#include <algorithm>

#include "core/errors.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

class ConcatenateDataset final : public DatasetBase {
 public:
  ConcatenateDataset(DatasetPtr a, DatasetPtr b, std::vector<Shape> shapes)
      : DatasetBase(a->dtypes(), std::move(shapes)), a_(std::move(a)), b_(std::move(b)) {}
  int64_t cardinality() const override {
    const int64_t n = a_->cardinality(), m = b_->cardinality();
    if (n == kInfiniteCardinality || m == kInfiniteCardinality) return kInfiniteCardinality;
    if (n < 0 || m < 0) return kUnknownCardinality;
    return n > INT64_MAX - m ? kInfiniteCardinality : n + m;
  }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<ConcatenateDataset>());
  }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const ConcatenateDataset> ds) : ds_(std::move(ds)), input_(ds_->a_->make_iterator()) {}
    bool get_next(Element& out) override {
      while (input_) {
        if (input_->get_next(out)) return true;
        input_ = second_ ? nullptr : ds_->b_->make_iterator();
        second_ = true;
      }
      return false;
    }

   private:
    std::shared_ptr<const ConcatenateDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    bool second_ = false;
  };
  DatasetPtr a_, b_;
};

std::vector<DType> concat_dtypes(const std::vector<DatasetPtr>& inputs) {
  std::vector<DType> out;
  for (const DatasetPtr& d : inputs) out.insert(out.end(), d->dtypes().begin(), d->dtypes().end());
  return out;
}

std::vector<Shape> concat_shapes(const std::vector<DatasetPtr>& inputs) {
  std::vector<Shape> out;
  for (const DatasetPtr& d : inputs) out.insert(out.end(), d->shapes().begin(), d->shapes().end());
  return out;
}

class ZipDataset final : public DatasetBase {
 public:
  explicit ZipDataset(std::vector<DatasetPtr> inputs)
      : DatasetBase(concat_dtypes(inputs), concat_shapes(inputs)), inputs_(std::move(inputs)) {}
  int64_t cardinality() const override {
    int64_t n = kInfiniteCardinality;
    for (const DatasetPtr& d : inputs_) {
      const int64_t m = d->cardinality();
      if (m == kUnknownCardinality) return m;
      if (m != kInfiniteCardinality) n = n == kInfiniteCardinality ? m : std::min(n, m);
    }
    return n;
  }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<ZipDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const ZipDataset> ds) : ds_(std::move(ds)) {
      for (const DatasetPtr& d : ds_->inputs_) inputs_.push_back(d->make_iterator());
    }
    bool get_next(Element& out) override {
      if (done_) return false;
      out.clear();
      Element e;
      for (auto& it : inputs_) {
        if (!it->get_next(e)) {
          done_ = true;
          inputs_.clear();
          return false;
        }
        out.insert(out.end(), e.begin(), e.end());
      }
      return true;
    }

   private:
    std::shared_ptr<const ZipDataset> ds_;
    std::vector<std::unique_ptr<IteratorBase>> inputs_;
    bool done_ = false;
  };
  std::vector<DatasetPtr> inputs_;
};

void concatenate_kernel(KernelContext& c) {
  DatasetPtr a = dataset_input_ptr(c, 0), b = dataset_input_ptr(c, 1);
  if (a->dtypes() != b->dtypes())
    throw_error(Code::kInvalidArgument, "input dataset and dataset to concatenate have different output_types");
  std::vector<Shape> shapes = output_shapes(c);
  if (shapes.size() != a->dtypes().size()) shapes = a->shapes();
  set_dataset_output(c, std::make_shared<ConcatenateDataset>(std::move(a), std::move(b), std::move(shapes)));
}

void zip_kernel(KernelContext& c) {
  if (c.inputs.empty()) throw_error(Code::kInvalidArgument, "ZipDataset needs at least one input dataset");
  std::vector<DatasetPtr> inputs;
  for (size_t i = 0; i < c.inputs.size(); ++i) inputs.push_back(dataset_input_ptr(c, i));
  set_dataset_output(c, std::make_shared<ZipDataset>(std::move(inputs)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("ConcatenateDataset", concatenate_kernel);
EF_REGISTER_CPU_KERNEL("ZipDataset", zip_kernel);

}  // namespace ef
