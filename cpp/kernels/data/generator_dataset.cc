// GeneratorDataset (from_generator): init_func(init_func_other_args) makes a state, next_func(state)
// gives each element until it raises OutOfRange, finalize_func(state) runs once at the end or when
// the iterator dies early. The functions call Python through py_function; the kernels stay free
// of it (the GIL is taken by the py_function kernel, and released by every pipeline wait).
#include "core/errors.h"
#include "kernels/data/function_call.h"

namespace ef {
namespace {

class GeneratorDataset final : public DatasetBase {
 public:
  GeneratorDataset(std::vector<Tensor> init_args, FunctionPtr init, FunctionPtr next, FunctionPtr finalize,
                   std::vector<DType> dtypes, std::vector<Shape> shapes)
      : DatasetBase(std::move(dtypes), std::move(shapes)), init_args_(std::move(init_args)), init_(std::move(init)),
        next_(std::move(next)), finalize_(std::move(finalize)) {}
  int64_t cardinality() const override { return kUnknownCardinality; }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<GeneratorDataset>());
  }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const GeneratorDataset> ds) : ds_(std::move(ds)) {}
    ~Iterator() override {
      try {
        finalize();
      } catch (...) {  // a destructor cannot report: the generator's cleanup error is dropped
      }
    }
    bool get_next(Element& out) override {
      if (done_) return false;
      if (!started_) {
        state_ = function_runtime().run(*ds_->init_, ds_->init_args_);
        started_ = true;
      }
      try {
        out = function_runtime().run(*ds_->next_, state_);
      } catch (const OpError& e) {
        if (e.code() != Code::kOutOfRange) throw;
        finalize();
        return false;
      }
      if (out.size() != ds_->dtypes().size())
        throw_error(Code::kInvalidArgument, "The generator's next function returned ", out.size(), " values, expected ",
                    ds_->dtypes().size());
      return true;
    }

   private:
    void finalize() {
      if (!started_ || done_) return;
      done_ = true;
      function_runtime().run(*ds_->finalize_, state_);
    }
    std::shared_ptr<const GeneratorDataset> ds_;
    Element state_;
    bool started_ = false, done_ = false;
  };
  std::vector<Tensor> init_args_;
  FunctionPtr init_, next_, finalize_;
};

void generator_kernel(KernelContext& c) {
  set_dataset_output(c, std::make_shared<GeneratorDataset>(
                            c.inputs, dataset_function_attr(c, "init_func"), dataset_function_attr(c, "next_func"),
                            dataset_function_attr(c, "finalize_func"), output_types(c), output_shapes(c)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("GeneratorDataset", generator_kernel);

}  // namespace ef
