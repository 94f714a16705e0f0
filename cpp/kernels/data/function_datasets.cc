// Datasets that run a function attr per element: MapDataset (`f`),
// FilterDataset and TakeWhileDataset (`predicate`). The traced graph functions run through the FunctionRuntime (their
// compiled plans, no Python), with the captured tensors (`other_arguments`) after the element.
#include "core/errors.h"
#include "kernels/data/function_call.h"

namespace ef {

FunctionPtr dataset_function_attr(const KernelContext& c, const char* name) {
  const AttrValue* v = c.attrs.find(name);
  const FunctionPtr* f = v ? std::get_if<FunctionPtr>(v) : nullptr;
  if (!f || !*f) throw_error(Code::kInvalidArgument, c.op.name, " needs a function attr '", name, "'");
  return *f;
}

DatasetPtr returned_dataset(const Element& out, const char* op) {
  DatasetBase* ds = out.size() == 1 && out[0]->dtype() == DType::kVariant ? out[0]->resource<DatasetBase>() : nullptr;
  if (!ds) throw_error(Code::kInvalidArgument, "The function given to ", op, " must return a dataset");
  return ds->shared_from_this();
}

namespace {

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
      if (!input_ || !input_->get_next(in)) return false;
      try {
        call_.run(std::move(in), out);
      } catch (const OpError& e) {
        if (e.code() != Code::kOutOfRange) throw;
        input_.reset();  // TF's rule: a function raising OutOfRange ends the sequence
        return false;
      }
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

bool predicate_value(const Element& pred) {
  if (pred.size() != 1 || pred[0]->dtype() != DType::kBool || pred[0]->rank() != 0)
    throw_error(Code::kInvalidArgument, "Filter predicate `f` must return a scalar bool.");
  return *pred[0]->data<bool>();
}

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
        if (predicate_value(pred)) return true;
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

class TakeWhileDataset final : public DatasetBase {
 public:
  TakeWhileDataset(DatasetPtr input, FunctionPtr f, std::vector<Tensor> captured)
      : DatasetBase(input->dtypes(), input->shapes()), input_(std::move(input)), f_(std::move(f)),
        captured_(std::move(captured)) {}
  int64_t cardinality() const override { return kUnknownCardinality; }
  std::unique_ptr<IteratorBase> make_iterator() const override {
    return std::make_unique<Iterator>(self<TakeWhileDataset>());
  }

 private:
  class Iterator final : public IteratorBase {
   public:
    explicit Iterator(std::shared_ptr<const TakeWhileDataset> ds)
        : ds_(std::move(ds)), input_(ds_->input_->make_iterator()), call_(ds_->f_, ds_->captured_) {}
    bool get_next(Element& out) override {
      if (!input_ || !input_->get_next(out)) return false;
      Element pred;
      call_.run(out, pred);
      if (predicate_value(pred)) return true;
      input_.reset();
      return false;
    }

   private:
    std::shared_ptr<const TakeWhileDataset> ds_;
    std::unique_ptr<IteratorBase> input_;
    FunctionCall call_;
  };
  DatasetPtr input_;
  FunctionPtr f_;
  std::vector<Tensor> captured_;
};

void map_kernel(KernelContext& c) {
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.end());
  set_dataset_output(c, std::make_shared<MapDataset>(dataset_input_ptr(c, 0), dataset_function_attr(c, "f"),
                                                      std::move(captured), output_types(c), output_shapes(c)));
}

void filter_kernel(KernelContext& c) {
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.end());
  set_dataset_output(c, std::make_shared<FilterDataset>(dataset_input_ptr(c, 0), dataset_function_attr(c, "predicate"),
                                                         std::move(captured)));
}

void take_while_kernel(KernelContext& c) {
  std::vector<Tensor> captured(c.inputs.begin() + 1, c.inputs.end());
  set_dataset_output(c, std::make_shared<TakeWhileDataset>(dataset_input_ptr(c, 0), dataset_function_attr(c, "predicate"),
                                                            std::move(captured)));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("TakeWhileDataset", take_while_kernel);
EF_REGISTER_CPU_KERNEL("MapDataset", map_kernel);
EF_REGISTER_CPU_KERNEL("FilterDataset", filter_kernel);

}  // namespace ef
