// BatchDatasetV2: stacks batch_size consecutive elements along a new first dimension; the last
// smaller batch is kept unless drop_remainder. Over rows of in-memory tensors (from_tensor_slices,
// shuffled) each batch is gathered from the source tensors by row number.
#include <cstring>

#include "core/errors.h"
#include "kernels/data/row_iterator.h"
#include "kernels/data/tensor_copy.h"

namespace ef {
namespace {

class BatchDataset final : public DatasetBase {
 public:
  BatchDataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, std::vector<Shape> shapes)
      : DatasetBase(input->dtypes(), std::move(shapes)), input_(std::move(input)), batch_size_(batch_size),
        drop_remainder_(drop_remainder) {}
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    return n / batch_size_ + (!drop_remainder_ && n % batch_size_ != 0 ? 1 : 0);
  }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<BatchDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const BatchDataset> ds)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()),
          source_(ds_->input_->row_source()), rows_(source_ ? &as_rows(*input_) : nullptr) {}
    bool get_next(Element& out) override { return rows_ ? next_gathered(out) : next_stacked(out); }

   private:
    // Elements one at a time, or runs of them already stacked where the input holds them so.
    bool next_stacked(Element& out) {
      std::vector<Element> pieces;  // not reserved: batch_size may be far larger than the data
      std::vector<int64_t> counts;  // rows per piece; 0: a single element
      int64_t total = 0;
      while (total < ds_->batch_size_ && input_) {
        Element e;
        const int64_t n = input_->next_stacked(ds_->batch_size_ - total, e);
        if (n == 0 || (n < 0 && !input_->get_next(e))) {
          input_.reset();  // exhausted
          break;
        }
        pieces.push_back(std::move(e));
        counts.push_back(n < 0 ? 0 : n);
        total += n < 0 ? 1 : n;
      }
      if (total == 0 || (ds_->drop_remainder_ && total < ds_->batch_size_)) return false;
      out.clear();
      for (size_t k = 0; k < pieces[0].size(); ++k) out.push_back(stack(pieces, counts, total, k));
      return true;
    }
    // Rows of in-memory tensors: each component's batch is copied straight from its source (all
    // rows of a source have one shape, so there is nothing to check).
    bool next_gathered(Element& out) {
      row_numbers_.clear();
      int64_t row = 0;
      while (static_cast<int64_t>(row_numbers_.size()) < ds_->batch_size_ && input_ && rows_->next_row(row))
        row_numbers_.push_back(row);
      const int64_t n = static_cast<int64_t>(row_numbers_.size());
      if (n < ds_->batch_size_) input_.reset();  // exhausted
      if (n == 0 || (ds_->drop_remainder_ && n < ds_->batch_size_)) return false;
      out.clear();
      for (const Tensor& t : *source_) out.push_back(gather_rows(*t, row_numbers_.data(), n));
      return true;
    }
   private:
    // The element shape of piece i's component k (a stacked piece's rows, or the element itself).
    static Shape element_shape(const Tensor& t, int64_t count) {
      Shape s = t->shape();
      if (count > 0) s.erase(0);
      return s;
    }
    static Tensor stack(const std::vector<Element>& pieces, const std::vector<int64_t>& counts, int64_t total,
                        size_t k) {
      const Tensor& first = pieces[0][k];
      const Shape first_shape = element_shape(first, counts[0]);
      int64_t index = 0;  // the element number, for the message
      for (size_t i = 0; i < pieces.size(); ++i) {
        // TF's BatchDataset message (TF 2.21 fuses map + batch by default, whose kernel words it
        // "Cannot add tensor to the batch: number of elements does not match").
        const Shape shape = element_shape(pieces[i][k], counts[i]);
        if (shape != first_shape || pieces[i][k]->dtype() != first->dtype())
          throw_error(Code::kInvalidArgument, "Cannot batch tensors with different shapes in component ", k,
                      ". First element had shape ", first_shape.to_list_string(), " and element ", index,
                      " had shape ", shape.to_list_string(), ".");
        index += counts[i] > 0 ? counts[i] : 1;
      }
      Shape shape = first_shape;
      shape.insert(0, total);
      Tensor out = TensorImpl::empty(first->dtype(), shape);
      int64_t row = 0;
      for (size_t i = 0; i < pieces.size(); ++i) {
        if (counts[i] == 0) {
          copy_row(*out, row++, *pieces[i][k]);
          continue;
        }
        const size_t bytes = pieces[i][k]->nbytes();  // stacked pieces hold no strings
        if (bytes > 0)
          std::memcpy(static_cast<char*>(out->raw_data()) + static_cast<size_t>(row) * (out->nbytes() / total),
                      pieces[i][k]->raw_data(), bytes);
        row += counts[i];
      }
      return out;
    }
    std::shared_ptr<const BatchDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    const std::vector<Tensor>* source_;  // the input's row source (the dataset keeps it), or null
    RowIterator* rows_;                  // input_ when it yields rows
    std::vector<int64_t> row_numbers_;
  };
  DatasetPtr input_;
  int64_t batch_size_;
  bool drop_remainder_;
};

void batch_kernel(KernelContext& c) {
  const int64_t batch_size = scalar_int_input(c, 1, "batch_size");
  if (batch_size <= 0) throw_error(Code::kInvalidArgument, "Batch size must be greater than zero.");
  const Tensor& drop = c.input(2);
  if (drop->dtype() != DType::kBool || drop->rank() != 0)
    throw_error(Code::kInvalidArgument, "drop_remainder must be a scalar bool");
  DatasetPtr input = dataset_input_ptr(c, 0);
  std::vector<Shape> shapes = output_shapes(c);
  if (shapes.size() != input->dtypes().size()) {  // not given: the input's shapes under an unknown batch dim
    shapes.clear();
    for (const Shape& s : input->shapes()) {
      Shape b = s;
      if (b.rank_known()) b.insert(0, -1);
      shapes.push_back(b);
    }
  }
  set_dataset_output(c, std::make_shared<BatchDataset>(std::move(input), batch_size, *drop->data<bool>(), shapes));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("BatchDatasetV2", batch_kernel);

}  // namespace ef
