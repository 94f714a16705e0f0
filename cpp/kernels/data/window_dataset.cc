// WindowDataset: a dataset of windows, each element a tuple of datasets (one per component) over
// `size` input elements taken `stride` apart; window k starts at input element k * shift. The
// windows are held in memory (they are small); the last ones may be shorter unless drop_remainder.
#include <deque>

#include "core/errors.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

// One component of one window: its values, in order.
class WindowComponentDataset final : public DatasetBase {
 public:
  WindowComponentDataset(DType dtype, Shape shape, std::vector<Tensor> values)
      : DatasetBase({dtype}, {std::move(shape)}), values_(std::move(values)) {}
  int64_t cardinality() const override { return static_cast<int64_t>(values_.size()); }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<WindowComponentDataset>());
  }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const WindowComponentDataset> ds) : ds_(std::move(ds)) {}
    bool get_next(Element& out) override {
      if (i_ >= ds_->values_.size()) return false;
      out.assign(1, ds_->values_[i_++]);
      return true;
    }

   private:
    std::shared_ptr<const WindowComponentDataset> ds_;
    size_t i_ = 0;
  };
  std::vector<Tensor> values_;
};

class WindowDataset final : public DatasetBase {
 public:
  WindowDataset(DatasetPtr input, int64_t size, int64_t shift, int64_t stride, bool drop_remainder)
      : DatasetBase(std::vector<DType>(input->dtypes().size(), DType::kVariant),
                    std::vector<Shape>(input->dtypes().size(), Shape())),
        input_(std::move(input)), size_(size), shift_(shift), stride_(stride), drop_remainder_(drop_remainder) {}
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    if (!drop_remainder_) return n / shift_ + (n % shift_ ? 1 : 0);
    const int64_t span = (size_ - 1) * stride_ + 1;
    return n < span ? 0 : (n - span) / shift_ + 1;
  }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<WindowDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const WindowDataset> ds) : ds_(std::move(ds)), input_(ds_->input_->make_iterator()) {}
    bool get_next(Element& out) override {
      const size_t span = static_cast<size_t>((ds_->size_ - 1) * ds_->stride_ + 1);
      Element e;
      while (buffer_.size() < span && input_ && input_->get_next(e)) buffer_.push_back(std::move(e));
      if (buffer_.size() < span) input_.reset();
      if (buffer_.empty()) return false;
      std::vector<const Element*> rows;
      for (size_t j = 0; j < buffer_.size(); j += static_cast<size_t>(ds_->stride_)) rows.push_back(&buffer_[j]);
      if (ds_->drop_remainder_ && static_cast<int64_t>(rows.size()) < ds_->size_) {
        buffer_.clear();
        return false;
      }
      const std::vector<DType>& types = ds_->input_->dtypes();
      const std::vector<Shape>& shapes = ds_->input_->shapes();
      out.clear();
      for (size_t k = 0; k < types.size(); ++k) {
        std::vector<Tensor> values;
        for (const Element* r : rows) values.push_back((*r)[k]);
        out.push_back(TensorImpl::variant<DatasetBase>(
            std::make_shared<WindowComponentDataset>(types[k], shapes[k], std::move(values))));
      }
      // The next window starts `shift` elements on; those not read yet are skipped.
      size_t drop = static_cast<size_t>(ds_->shift_);
      while (drop > 0 && !buffer_.empty()) {
        buffer_.pop_front();
        --drop;
      }
      while (drop > 0 && input_ && input_->get_next(e)) --drop;
      if (drop > 0) input_.reset();
      return true;
    }

   private:
    std::shared_ptr<const WindowDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    std::deque<Element> buffer_;
  };
  DatasetPtr input_;
  int64_t size_, shift_, stride_;
  bool drop_remainder_;
};

void window_kernel(KernelContext& c) {
  const int64_t size = scalar_int_input(c, 1, "size"), shift = scalar_int_input(c, 2, "shift"),
                stride = scalar_int_input(c, 3, "stride");
  if (size <= 0) throw_error(Code::kInvalidArgument, "Window size must be greater than zero.");
  if (shift <= 0) throw_error(Code::kInvalidArgument, "Window shift must be greater than zero.");
  if (stride <= 0) throw_error(Code::kInvalidArgument, "Window stride must be greater than zero.");
  const Tensor& drop = c.input(4);
  if (drop->dtype() != DType::kBool || drop->rank() != 0)
    throw_error(Code::kInvalidArgument, "drop_remainder must be a scalar bool");
  set_dataset_output(c, std::make_shared<WindowDataset>(dataset_input_ptr(c, 0), size, shift, stride, *drop->data<bool>()));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("WindowDataset", window_kernel);

}  // namespace ef
