// Datasets that count elements of their input: RepeatDataset, TakeDataset, SkipDataset.
// A negative count means "all" (repeat forever, take all, skip all). Over an input that yields
// rows they pass row numbers along (row_iterator.h).
#include <algorithm>

#include "core/errors.h"
#include "kernels/data/row_iterator.h"

namespace ef {
namespace {

class CountDataset : public DatasetBase {
 public:
  CountDataset(DatasetPtr input, int64_t count)
      : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)), count_(count) {}
  const std::vector<Tensor>* row_source() const override { return input_->row_source(); }

 protected:
  DatasetPtr input_;
  int64_t count_;
};

class RepeatDataset final : public CountDataset {
 public:
  using CountDataset::CountDataset;
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (count_ < 0) return n == 0 ? 0 : kInfiniteCardinality;
    if (count_ == 0) return 0;
    if (n < 0) return n;
    return n > INT64_MAX / count_ ? kInfiniteCardinality : n * count_;
  }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return make_item_iterator<Pass>(row_source(), self<RepeatDataset>());
  }

 private:
  template <typename Item>
  class Pass {
   public:
    explicit Pass(std::shared_ptr<const RepeatDataset> ds) : ds_(std::move(ds)) {}
    bool next(Item& out) {
      for (;;) {
        if (!input_) {
          if (ds_->count_ >= 0 && pass_ >= ds_->count_) return false;
          input_ = ds_->input_->make_iterator();
          fresh_ = true;
        }
        if (next_item(*input_, out)) {
          fresh_ = false;
          return true;
        }
        input_.reset();
        ++pass_;
        // An input that is empty from the start would loop forever.
        if (fresh_) {
          pass_ = ds_->count_ < 0 ? 0 : ds_->count_;
          if (ds_->count_ < 0) return false;
        }
      }
    }

   private:
    std::shared_ptr<const RepeatDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    int64_t pass_ = 0;
    bool fresh_ = false;
  };
};

class TakeDataset final : public CountDataset {
 public:
  using CountDataset::CountDataset;
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    // TF's arithmetic, kept: take(-5) of 3 elements reports -5 (yet yields all 3).
    if (n == kUnknownCardinality) return n;
    if (count_ == -1) return n;
    if (n == kInfiniteCardinality) return count_;
    return std::min(n, count_);
  }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return make_item_iterator<Pass>(row_source(), self<TakeDataset>());
  }

 private:
  template <typename Item>
  class Pass {
   public:
    explicit Pass(std::shared_ptr<const TakeDataset> ds) : ds_(std::move(ds)), input_(ds_->input_->make_iterator()) {}
    bool next(Item& out) {
      if (!input_ || (ds_->count_ >= 0 && taken_ >= ds_->count_)) return false;
      if (!next_item(*input_, out)) {
        input_.reset();
        return false;
      }
      ++taken_;
      return true;
    }

   private:
    std::shared_ptr<const TakeDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    int64_t taken_ = 0;
  };
};

class SkipDataset final : public CountDataset {
 public:
  using CountDataset::CountDataset;
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    if (count_ < 0) return 0;
    return std::max<int64_t>(0, n - count_);
  }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return make_item_iterator<Pass>(row_source(), self<SkipDataset>());
  }

 private:
  template <typename Item>
  class Pass {
   public:
    explicit Pass(std::shared_ptr<const SkipDataset> ds) : ds_(std::move(ds)), input_(ds_->input_->make_iterator()) {}
    bool next(Item& out) {
      if (!input_) return false;
      while (ds_->count_ < 0 || skipped_ < ds_->count_) {
        if (!next_item(*input_, out)) {
          input_.reset();
          return false;
        }
        ++skipped_;
      }
      if (next_item(*input_, out)) return true;
      input_.reset();
      return false;
    }

   private:
    std::shared_ptr<const SkipDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    int64_t skipped_ = 0;
  };
};

template <typename D>
void count_kernel(KernelContext& c) {
  const int64_t count = scalar_int_input(c, 1, "count");
  set_dataset_output(c, std::make_shared<D>(dataset_input_ptr(c, 0), count));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("RepeatDataset", count_kernel<RepeatDataset>);
EF_REGISTER_CPU_KERNEL("TakeDataset", count_kernel<TakeDataset>);
EF_REGISTER_CPU_KERNEL("SkipDataset", count_kernel<SkipDataset>);

}  // namespace ef
