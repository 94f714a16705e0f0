// UnbatchDataset (the rows of each element, in order) and _PaddedBatchDataset (batching elements
// of different shapes, padded up to padded_shapes or to the batch's largest dims).
#include <algorithm>
#include <cstring>
#include <string>

#include "core/errors.h"
#include "kernels/data/dataset.h"
#include "kernels/data/tensor_copy.h"
#include "ops/array_shapes.h"

namespace ef {
namespace {

class UnbatchDataset final : public DatasetBase {
 public:
  explicit UnbatchDataset(DatasetPtr input, std::vector<Shape> shapes)
      : DatasetBase(input->dtypes(), std::move(shapes)), input_(std::move(input)) {}
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    return n == kInfiniteCardinality ? n : kUnknownCardinality;
  }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<UnbatchDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const UnbatchDataset> ds) : ds_(std::move(ds)), input_(ds_->input_->make_iterator()) {}
    bool get_next(Element& out) override {
      while (row_ >= rows_) {
        if (!input_ || !input_->get_next(current_)) {
          input_.reset();
          return false;
        }
        rows_ = -1;
        for (const Tensor& t : current_) {
          if (t->rank() < 1) throw_error(Code::kInvalidArgument, "Input element must have a non-scalar value in each component.");
          if (rows_ >= 0 && t->shape()[0] != rows_)
            throw_error(Code::kInvalidArgument, "Input element must have the same batch size in each component. "
                        "Component 0 had size ", rows_, " but one component had size ", t->shape()[0], ".");
          rows_ = t->shape()[0];
        }
        row_ = 0;
      }
      out.clear();
      for (const Tensor& t : current_) out.push_back(slice_row(*t, row_));
      ++row_;
      return true;
    }

   private:
    std::shared_ptr<const UnbatchDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    Element current_;
    int64_t row_ = 0, rows_ = 0;
  };
  DatasetPtr input_;
};

// Copies `src` into the leading corner of row `i` of `dst` (dst rows are at least src's size in each dim).
void copy_padded(TensorImpl& dst, int64_t i, const TensorImpl& src) {
  const Shape& ss = src.shape();
  const int rank = ss.rank();
  if (src.num_elements() == 0) return;
  const size_t width = dtype_size(src.dtype());
  // Element strides, within one row of dst, of each of src's dims.
  std::vector<int64_t> dstride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) dstride[d] = dstride[d + 1] * dst.shape()[d + 2];
  const int64_t inner = rank == 0 ? 1 : ss[rank - 1];
  const int64_t chunks = rank == 0 ? 1 : src.num_elements() / inner;
  const int64_t row_base = i * (rank == 0 ? 1 : dstride[0] * dst.shape()[1]);
  for (int64_t k = 0; k < chunks; ++k) {
    int64_t rem = k, doff = 0;
    for (int d = rank - 2; d >= 0; --d) {
      const int64_t idx = rem % ss[d];
      rem /= ss[d];
      doff += idx * dstride[d];
    }
    const int64_t so = k * inner, dof = row_base + doff;
    if (src.dtype() == DType::kString) {
      for (int64_t e = 0; e < inner; ++e) dst.data<std::string>()[dof + e] = src.data<std::string>()[so + e];
    } else {
      std::memcpy(static_cast<char*>(dst.raw_data()) + dof * width, static_cast<const char*>(src.raw_data()) + so * width,
                  inner * width);
    }
  }
}

void fill_value(TensorImpl& t, const TensorImpl& value) {
  const int64_t n = t.num_elements();
  if (t.dtype() == DType::kString) {
    for (int64_t k = 0; k < n; ++k) t.data<std::string>()[k] = *value.data<std::string>();
    return;
  }
  const size_t w = dtype_size(t.dtype());
  for (int64_t k = 0; k < n; ++k) std::memcpy(static_cast<char*>(t.raw_data()) + k * w, value.raw_data(), w);
}

class PaddedBatchDataset final : public DatasetBase {
 public:
  PaddedBatchDataset(DatasetPtr input, int64_t batch_size, bool drop_remainder, std::vector<Shape> padded,
                     std::vector<Tensor> values, std::vector<Shape> shapes)
      : DatasetBase(input->dtypes(), std::move(shapes)), input_(std::move(input)), batch_size_(batch_size),
        drop_remainder_(drop_remainder), padded_(std::move(padded)), values_(std::move(values)) {}
  int64_t cardinality() const override {
    const int64_t n = input_->cardinality();
    if (n < 0) return n;
    return n / batch_size_ + (!drop_remainder_ && n % batch_size_ != 0 ? 1 : 0);
  }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<PaddedBatchDataset>());
  }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const PaddedBatchDataset> ds) : ds_(std::move(ds)), input_(ds_->input_->make_iterator()) {}
    bool get_next(Element& out) override {
      std::vector<Element> rows;
      Element e;
      while (static_cast<int64_t>(rows.size()) < ds_->batch_size_ && input_ && input_->get_next(e)) rows.push_back(std::move(e));
      if (static_cast<int64_t>(rows.size()) < ds_->batch_size_) input_.reset();
      if (rows.empty() || (ds_->drop_remainder_ && static_cast<int64_t>(rows.size()) < ds_->batch_size_)) return false;
      out.clear();
      for (size_t k = 0; k < rows[0].size(); ++k) out.push_back(pad(rows, k));
      return true;
    }

   private:
    Tensor pad(const std::vector<Element>& rows, size_t k) const {
      const Shape& want = ds_->padded_[k];
      const int rank = rows[0][k]->rank();
      if (want.rank_known() && want.rank() != rank)
        throw_error(Code::kInvalidArgument, "The padded shape ", want.to_list_string(), " of component ", k,
                    " does not have the rank of the element ", rows[0][k]->shape().to_list_string());
      Shape shape;
      for (int d = 0; d < rank; ++d) {
        int64_t size = want.rank_known() ? want[d] : -1;
        int64_t most = 0;
        for (const Element& r : rows) {
          if (r[k]->rank() != rank)
            throw_error(Code::kInvalidArgument, "All elements in a batch must have the same rank as the padded shape "
                        "for component", k, ": expected rank ", rank, " but got element with rank ", r[k]->rank());
          most = std::max(most, r[k]->shape()[d]);
        }
        if (size < 0) size = most;
        if (most > size) throw_error(Code::kDataLoss, "Attempted to pad to a smaller size than the input element.");
        shape.push_back(size);
      }
      shape.insert(0, static_cast<int64_t>(rows.size()));
      Tensor out = TensorImpl::empty(rows[0][k]->dtype(), checked_shape(shape));  // padded_shapes may be huge
      fill_value(*out, *ds_->values_[k]);
      for (size_t i = 0; i < rows.size(); ++i) copy_padded(*out, static_cast<int64_t>(i), *rows[i][k]);
      return out;
    }
    std::shared_ptr<const PaddedBatchDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
  };
  DatasetPtr input_;
  int64_t batch_size_;
  bool drop_remainder_;
  std::vector<Shape> padded_;
  std::vector<Tensor> values_;
};

void unbatch_kernel(KernelContext& c) {
  DatasetPtr input = dataset_input_ptr(c, 0);
  std::vector<Shape> shapes = output_shapes(c);
  if (shapes.size() != input->dtypes().size()) shapes.assign(input->dtypes().size(), Shape::unknown_rank());
  set_dataset_output(c, std::make_shared<UnbatchDataset>(std::move(input), std::move(shapes)));
}

void padded_batch_kernel(KernelContext& c) {
  const int64_t batch_size = scalar_int_input(c, 1, "batch_size");
  if (batch_size <= 0) throw_error(Code::kInvalidArgument, "Batch size must be greater than zero.");
  const Tensor& drop = c.input(2);
  if (drop->dtype() != DType::kBool || drop->rank() != 0)
    throw_error(Code::kInvalidArgument, "drop_remainder must be a scalar bool");
  DatasetPtr input = dataset_input_ptr(c, 0);
  const size_t n = input->dtypes().size();
  std::vector<Tensor> values(c.inputs.begin() + 3, c.inputs.end());
  std::vector<Shape> padded = c.attrs.get<std::vector<Shape>>("padded_shapes", {});
  if (values.size() != n || padded.size() != n)
    throw_error(Code::kInvalidArgument, "Number of padded shapes (", padded.size(), ") and padding values (",
                values.size(), ") must match the number of components (", n, ")");
  for (size_t k = 0; k < n; ++k) {
    if (values[k]->rank() != 0 || values[k]->num_elements() != 1)
      throw_error(Code::kInvalidArgument, "All padding values must be scalars");
    if (values[k]->dtype() != input->dtypes()[k])
      throw_error(Code::kInvalidArgument, "Mismatched type between padding value ", k, " and input dataset's component ",
                  k, ": ", tf_type_string(values[k]->dtype()), " vs. ", tf_type_string(input->dtypes()[k]));
    if (values[k]->dtype() == DType::kResource || values[k]->dtype() == DType::kVariant)
      throw_error(Code::kUnimplemented, "padded_batch cannot pad ", dtype_name(values[k]->dtype()), " components");
  }
  std::vector<Shape> shapes = output_shapes(c);
  if (shapes.size() != n) shapes.assign(n, Shape::unknown_rank());
  set_dataset_output(c, std::make_shared<PaddedBatchDataset>(std::move(input), batch_size, *drop->data<bool>(),
                                                              std::move(padded), std::move(values), std::move(shapes)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("UnbatchDataset", unbatch_kernel);
EF_REGISTER_CPU_KERNEL("_PaddedBatchDataset", padded_batch_kernel);

}  // namespace ef
