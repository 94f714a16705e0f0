// CacheDataset with an empty filename: the first iteration that reaches the end stores the
// elements in memory, and later iterators read them instead of the input.
#include <mutex>

#include "core/errors.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

class CacheDataset final : public DatasetBase {
 public:
  explicit CacheDataset(DatasetPtr input) : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<CacheDataset>()); }

 private:
  using Elements = std::vector<Element>;
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const CacheDataset> ds) : ds_(std::move(ds)) {
      std::lock_guard<std::mutex> l(ds_->mu_);
      cache_ = ds_->cache_;
      if (!cache_) input_ = ds_->input_->make_iterator();
    }
    bool get_next(Element& out) override {
      if (cache_) {
        if (i_ >= cache_->size()) return false;
        out = (*cache_)[i_++];
        return true;
      }
      if (!input_) return false;
      if (input_->get_next(out)) {
        written_.push_back(out);
        return true;
      }
      input_.reset();
      std::lock_guard<std::mutex> l(ds_->mu_);
      if (!ds_->cache_) ds_->cache_ = std::make_shared<const Elements>(std::move(written_));
      return false;
    }

   private:
    std::shared_ptr<const CacheDataset> ds_;
    std::shared_ptr<const Elements> cache_;
    size_t i_ = 0;
    std::unique_ptr<IteratorBase> input_;
    Elements written_;
  };
  DatasetPtr input_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const Elements> cache_;  // set once, by the first complete pass
};

void cache_kernel(KernelContext& c) {
  const Tensor& filename = c.input(1);
  if (filename->dtype() != DType::kString || filename->rank() != 0)
    throw_error(Code::kInvalidArgument, "filename must be a scalar string");
  if (!filename->data<std::string>()->empty())
    throw_error(Code::kUnimplemented, "Dataset.cache(filename) with a file is not supported yet; use cache() (memory)");
  set_dataset_output(c, std::make_shared<CacheDataset>(dataset_input_ptr(c, 0)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("CacheDataset", cache_kernel);

}  // namespace ef
