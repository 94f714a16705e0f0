// ShuffleDataset: a buffer of buffer_size elements from which each output is drawn at random and
// refilled from the input. Seeds (seed, seed2) both zero draw random ones once per dataset; with
// reshuffle_each_iteration every iterator gets the next stream, else all repeat the first order.
// Over rows of in-memory tensors (from_tensor_slices) the buffer holds row numbers.
#include <atomic>
#include <random>

#include "core/errors.h"
#include "kernels/data/row_iterator.h"

namespace ef {
namespace {

class ShuffleDataset final : public DatasetBase {
 public:
  ShuffleDataset(DatasetPtr input, int64_t buffer_size, uint64_t seed, uint64_t seed2, bool reshuffle)
      : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)), buffer_size_(buffer_size),
        seed_(seed), seed2_(seed2), reshuffle_(reshuffle) {
    if (seed_ == 0 && seed2_ == 0) {
      std::random_device rd;
      seed_ = (uint64_t(rd()) << 32) | rd();
      seed2_ = (uint64_t(rd()) << 32) | rd();
    }
  }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    const uint64_t epoch = reshuffle_ ? epochs_.fetch_add(1) : 0;
    std::seed_seq seq{uint32_t(seed_), uint32_t(seed_ >> 32), uint32_t(seed2_), uint32_t(seed2_ >> 32),
                      uint32_t(epoch), uint32_t(epoch >> 32)};
    return make_item_iterator<Pass>(row_source(), self<ShuffleDataset>(), std::mt19937_64(seq));
  }
  const std::vector<Tensor>* row_source() const override { return input_->row_source(); }

 private:
  // Over elements, or over row numbers when the input yields rows: the same draws either way,
  // so a seed gives the same order on both paths.
  template <typename Item>
  class Pass {
   public:
    Pass(std::shared_ptr<const ShuffleDataset> ds, std::mt19937_64 rng)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()), rng_(std::move(rng)) {}
    bool next(Item& out) {
      Item item;
      while (input_ && static_cast<int64_t>(buffer_.size()) < ds_->buffer_size_) {
        if (next_item(*input_, item)) {
          buffer_.push_back(std::move(item));
        } else {
          input_.reset();
        }
      }
      if (buffer_.empty()) return false;
      const size_t j = std::uniform_int_distribution<size_t>(0, buffer_.size() - 1)(rng_);
      out = std::move(buffer_[j]);
      if (j + 1 != buffer_.size()) buffer_[j] = std::move(buffer_.back());
      buffer_.pop_back();
      return true;
    }

   private:
    std::shared_ptr<const ShuffleDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    std::mt19937_64 rng_;
    std::vector<Item> buffer_;
  };
  DatasetPtr input_;
  int64_t buffer_size_;
  uint64_t seed_, seed2_;
  bool reshuffle_;
  mutable std::atomic<uint64_t> epochs_{0};
};

void shuffle_kernel(KernelContext& c) {
  int64_t buffer_size = scalar_int_input(c, 1, "buffer_size");
  if (buffer_size <= 0 && buffer_size != kUnknownCardinality)
    throw_error(Code::kInvalidArgument, "buffer_size must be greater than zero or UNKNOWN_CARDINALITY");
  DatasetPtr input = dataset_input_ptr(c, 0);
  if (buffer_size == kUnknownCardinality) buffer_size = INT64_MAX;  // the whole input
  const uint64_t seed = static_cast<uint64_t>(scalar_int_input(c, 2, "seed"));
  const uint64_t seed2 = static_cast<uint64_t>(scalar_int_input(c, 3, "seed2"));
  const bool reshuffle = c.attrs.get<bool>("reshuffle_each_iteration", true);
  set_dataset_output(c, std::make_shared<ShuffleDataset>(std::move(input), buffer_size, seed, seed2, reshuffle));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("ShuffleDataset", shuffle_kernel);

}  // namespace ef
