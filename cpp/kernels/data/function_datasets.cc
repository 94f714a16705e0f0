// Datasets that run a function attr per element: MapDataset / ParallelMapDatasetV2 (`f`) and
// FilterDataset (`predicate`). The traced graph functions run through the FunctionRuntime (their
// compiled plans, no Python), with the captured tensors (`other_arguments`) after the element.
#include "core/errors.h"
#include "kernels/cpu/function_runtime.h"
#include "kernels/data/dataset.h"

namespace ef {
namespace {

FunctionPtr function_attr(const KernelContext& c, const char* name) {
  const AttrValue* v = c.attrs.find(name);
  const FunctionPtr* f = v ? std::get_if<FunctionPtr>(v) : nullptr;
  if (!f || !*f) throw_error(Code::kInvalidArgument, c.op.name, " needs a function attr '", name, "'");
  return *f;
}

// Element components then captured arguments, through one Runner (its scratch is reused).
class FunctionCall {
 public:
  FunctionCall(FunctionPtr f, const std::vector<Tensor>& captured)
      : f_(std::move(f)), captured_(captured), runner_(function_runtime().runner(*f_)) {}
  void run(Element element, Element& out) {
    for (const Tensor& t : captured_) element.push_back(t);
    out.clear();
    runner_->run(element, out);
  }

 private:
  FunctionPtr f_;  // keeps the plan the runner points into alive
  const std::vector<Tensor>& captured_;
  std::unique_ptr<FunctionRuntime::Runner> runner_;
};

class MapDataset final : public DatasetBase {
 public:
  MapDataset(DatasetPtr input, FunctionPtr f, std::vector<Tensor> captured, std::vector<DType> dtypes,
             std::vector<Shape> shapes)
      : DatasetBase(std::move(dtypes), std::move(shapes)), input_(std::move(input)), f_(std::move(f)),
        captured_(std::move(captured)) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<MapDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const MapDataset> ds)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()), call_(ds_->f_, ds_->captured_) {}
    bool get_next(Element& out) override {
      Element in;
      if (!input_->get_next(in)) return false;
      call_.run(std::move(in), out);
      if (out.size() != ds_->dtypes().size())
        throw_error(Code::kInvalidArgument, "The map function returned ", out.size(), " values, expected ",
                    ds_->dtypes().size());
      return true;
    }

   private:
    std::shared_ptr<const MapDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    FunctionCall call_;
  };
  DatasetPtr input_;
  FunctionPtr f_;
  std::vector<Tensor> captured_;
};

class FilterDataset final : public DatasetBase {
 public:
  FilterDataset(DatasetPtr input, FunctionPtr f, std::vector<Tensor> captured)
      : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)), f_(std::move(f)),
        captured_(std::move(captured)) {}
  int64_t cardinality() const override { return kUnknownCardinality; }
  std::unique_ptr<IteratorBase> make_iterator() const override { return std::make_unique<Iterator>(self<FilterDataset>()); }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const FilterDataset> ds)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()), call_(ds_->f_, ds_->captured_) {}
    bool get_next(Element& out) override {
      Element pred;
      for (;;) {
        if (!input_->get_next(out)) return false;
        call_.run(out, pred);
        if (pred.size() != 1 || pred[0]->dtype() != DType::kBool || pred[0]->rank() != 0)
          throw_error(Code::kInvalidArgument, "Filter predicate `f` must return a scalar bool.");
        if (*pred[0]->data<bool>()) return true;
      }
    }

   private:
    std::shared_ptr<const FilterDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    FunctionCall call_;
  };
  DatasetPtr input_;
  FunctionPtr f_;
  std::vector<Tensor> captured_;
};

// ParallelMapDatasetV2's last input is num_parallel_calls; elements are computed in order on the
// consumer's thread (a parallel map is future work; the results are the same).
void map_kernel(KernelContext& c) {
  const bool parallel = c.op.name == "ParallelMapDatasetV2";
  const size_t end = c.inputs.size() - (parallel ? 1 : 0);
  if (parallel) {
    const int64_t n = scalar_int_input(c, end, "num_parallel_calls");
    if (n <= 0 && n != -1)
      throw_error(Code::kInvalidArgument, "num_parallel_calls must be greater than zero or AUTOTUNE");
  }
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.begin() + end);
  set_dataset_output(c, std::make_shared<MapDataset>(dataset_input_ptr(c, 0), function_attr(c, "f"),
                                                      std::move(captured), output_types(c), output_shapes(c)));
}

void filter_kernel(KernelContext& c) {
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.end());
  set_dataset_output(c, std::make_shared<FilterDataset>(dataset_input_ptr(c, 0), function_attr(c, "predicate"),
                                                         std::move(captured)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("MapDataset", map_kernel);
EF_REGISTER_CPU_KERNEL("ParallelMapDatasetV2", map_kernel);
EF_REGISTER_CPU_KERNEL("FilterDataset", filter_kernel);

}  // namespace ef
