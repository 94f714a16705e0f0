// Datasets whose function returns a dataset per input element: FlatMapDataset (each one in turn)
// and InterleaveDataset (cycle_length of them open at once, block_length elements from each).
#include <thread>

#include "core/errors.h"
#include "kernels/data/function_call.h"

namespace ef {
namespace {

class FlatMapDataset final : public DatasetBase {
 public:
  FlatMapDataset(DatasetPtr input, FunctionPtr f, std::vector<Tensor> captured, std::vector<DType> dtypes,
                 std::vector<Shape> shapes, int64_t cycle_length = 1, int64_t block_length = 1)
      : DatasetBase(std::move(dtypes), std::move(shapes)), input_(std::move(input)), f_(std::move(f)),
        captured_(std::move(captured)), cycle_length_(cycle_length), block_length_(block_length) {}
  int64_t cardinality() const override { return kUnknownCardinality; }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<FlatMapDataset>()); }

 private:
  // TF's interleave order; flat_map is its cycle_length 1 case.
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const FlatMapDataset> ds)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()), call_(ds_->f_, ds_->captured_),
          cycle_(static_cast<size_t>(ds_->cycle_length_)) {}
    bool get_next(Element& out) override {
      while (input_ || open_ > 0) {
        std::unique_ptr<IteratorBase>& slot = cycle_[index_];
        if (slot) {
          if (slot->get_next(out)) {
            if (++block_ == ds_->block_length_) advance();
            return true;
          }
          slot.reset();
          --open_;
          advance();
        } else if (input_) {
          Element args;
          if (!input_->get_next(args)) {
            input_.reset();
            continue;
          }
          Element r;
          call_.run(std::move(args), r);
          DatasetPtr inner = returned_dataset(r, "flat_map or interleave");
          if (inner->dtypes() != ds_->dtypes())
            throw_error(Code::kInvalidArgument, "The dataset the function returned has other element types than declared");
          slot = inner->make_iterator();
          ++open_;
        } else {
          advance();
        }
      }
      return false;
    }

   private:
    void advance() {
      block_ = 0;
      index_ = (index_ + 1) % cycle_.size();
    }
    std::shared_ptr<const FlatMapDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    FunctionCall call_;
    std::vector<std::unique_ptr<IteratorBase>> cycle_;
    size_t index_ = 0;
    int64_t block_ = 0, open_ = 0;
  };
  DatasetPtr input_;
  FunctionPtr f_;
  std::vector<Tensor> captured_;
  int64_t cycle_length_, block_length_;
};

void flat_map_kernel(KernelContext& c) {
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.end());
  set_dataset_output(c, std::make_shared<FlatMapDataset>(dataset_input_ptr(c, 0), dataset_function_attr(c, "f"),
                                                          std::move(captured), output_types(c), output_shapes(c)));
}

constexpr int64_t kAutotune = -1;

void interleave_kernel(KernelContext& c) {
  const size_t n = c.inputs.size();
  int64_t cycle_length = scalar_int_input(c, n - 2, "cycle_length");
  const int64_t block_length = scalar_int_input(c, n - 1, "block_length");
  if (cycle_length == kAutotune) cycle_length = std::max(1u, std::thread::hardware_concurrency());
  if (cycle_length <= 0) throw_error(Code::kInvalidArgument, "cycle_length must be greater than zero.");
  if (block_length <= 0) throw_error(Code::kInvalidArgument, "block_length must be greater than zero.");
  if (cycle_length > (int64_t(1) << 20)) throw_error(Code::kInvalidArgument, "cycle_length is too large: ", cycle_length);
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.begin() + (n - 2));
  set_dataset_output(c, std::make_shared<FlatMapDataset>(dataset_input_ptr(c, 0), dataset_function_attr(c, "f"),
                                                          std::move(captured), output_types(c), output_shapes(c),
                                                          cycle_length, block_length));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("FlatMapDataset", flat_map_kernel);
EF_REGISTER_CPU_KERNEL("InterleaveDataset", interleave_kernel);

}  // namespace ef
