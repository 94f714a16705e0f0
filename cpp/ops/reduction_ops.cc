// Op definitions: reductions (Sum, Mean, Prod, Max, Min, Any, All), ArgMax/ArgMin, Cumsum/Cumprod.
#include "ops/reduction_util.h"

namespace ef {
namespace {

// The dtypes each reduction accepts (TF's "T" lists restricted to eagerflow's dtypes).
unsigned reduction_types(const std::string& name) {
  if (name == "Max" || name == "Min") return kTypesMinMax;
  return kTypesSum;  // Sum, Mean, Prod
}

void check_reduction_input(const OpDef& op, DType t) {
  if (op.name == "Any" || op.name == "All") {
    check_same_dtype(op, DType::kBool, t, 0);
  } else {
    check_type(op, t, reduction_types(op.name));
  }
}

// input, reduction_indices; attr keep_dims (default false).
void infer_reduction(InferContext& c) {
  check_reduction_input(c.op, c.dtypes[0]);
  check_index_dtype(c.op, c.dtypes[1]);
  const bool keep = c.attrs.get<bool>("keep_dims", false);
  const Shape& in = c.shapes[0];
  if (c.values.size() > 1 && c.values[1] && in.rank_known()) {
    c.set_output(0, c.dtypes[0], reduced_shape(in, reduction_mask(c.op, *c.values[1], in.rank()), keep));
    return;
  }
  if (!in.rank_known()) {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
  } else if (keep) {
    c.set_output(0, c.dtypes[0], Shape(std::vector<int64_t>(in.rank(), kUnknownDim)));
  } else if (c.shapes[1].fully_defined() && c.shapes[1].num_elements() <= in.rank()) {
    // Axes are distinct, so each one removes exactly one dim.
    c.set_output(0, c.dtypes[0], Shape(std::vector<int64_t>(in.rank() - c.shapes[1].num_elements(), kUnknownDim)));
  } else {
    c.set_output(0, c.dtypes[0], Shape::unknown_rank());
  }
}

OpDef reduction(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"input", "reduction_indices"};
  d.attrs = {"keep_dims"};  // default false
  d.infer = infer_reduction;
  return d;
}

EF_REGISTER_OP(reduction("Sum").with_types({"T", "Tidx"}, {{"T", kListNumber, kTypesSum}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(reduction("Mean").with_types({"T", "Tidx"}, {{"T", kListNumber, kTypesSum}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(reduction("Prod").with_types({"T", "Tidx"}, {{"T", kListNumber, kTypesSum}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(reduction("Max").with_types({"T", "Tidx"}, {{"T", kListRealNumber, kTypesMinMax}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(reduction("Min").with_types({"T", "Tidx"}, {{"T", kListRealNumber, kTypesMinMax}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(reduction("Any").with_types({"bool", "Tidx"}, {{"Tidx", kListIndex}}));
EF_REGISTER_OP(reduction("All").with_types({"bool", "Tidx"}, {{"Tidx", kListIndex}}));

// input, dimension; attr output_type (default int64).
void infer_arg(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesReal | kTypesBool);
  check_index_dtype(c.op, c.dtypes[1], /*allow_int16=*/true);
  DType out = c.attrs.get<DType>("output_type", DType::kInt64);
  if (out != DType::kInt16 && out != DType::kInt32 && out != DType::kInt64)
    throw_error(Code::kInvalidArgument, "Value for attr 'output_type' of ", tf_type_string(out),
                " is not in the list of allowed values: int16, uint16, int32, int64\n\t; NodeDef: {{node ",
                c.op.name, "}}");
  const Shape& in = c.shapes[0];
  if (c.values.size() > 1 && c.values[1] && in.rank_known()) {
    int axis = scalar_axis(*c.values[1], in.rank(), /*scan=*/false);
    Shape s = in;
    s.erase(axis);
    c.set_output(0, out, s);
  } else if (in.rank_known() && in.rank() > 0) {
    c.set_output(0, out, Shape(std::vector<int64_t>(in.rank() - 1, kUnknownDim)));
  } else {
    c.set_output(0, out, Shape::unknown_rank());
  }
}

OpDef arg_reduction(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"input", "dimension"};
  d.attrs = {"output_type"};  // default int64
  d.infer = infer_arg;
  return d;
}

constexpr const char* kListArg =
    "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8, quint8, qint32, "
    "qint16, quint16, bool";
constexpr uint32_t kTypesArg = kTypesMinMax | kTypesBool;
EF_REGISTER_OP(arg_reduction("ArgMax").with_types({"T", "Tidx"}, {{"T", kListArg, kTypesArg},
                                                                  {"Tidx", kListIndex16},
                                                                  {"output_type", "int16, uint16, int32, int64"}}));
EF_REGISTER_OP(arg_reduction("ArgMin").with_types(
    {"T", "Tidx"}, {{"T", kListArg, kTypesArg}, {"Tidx", kListIndex}, {"output_type", kListIndex}}));

// x, axis (scalar); attrs exclusive, reverse (default false).
void infer_scan(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesSum);
  check_index_dtype(c.op, c.dtypes[1]);
  if (c.values.size() > 1 && c.values[1] && c.shapes[0].rank_known())
    scalar_axis(*c.values[1], c.shapes[0].rank(), /*scan=*/true);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

OpDef scan(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"x", "axis"};
  d.attrs = {"exclusive", "reverse"};  // defaults false
  d.infer = infer_scan;
  return d;
}

EF_REGISTER_OP(scan("Cumsum").with_types({"T", "Tidx"}, {{"T", kListNumber, kTypesSum}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(scan("Cumprod").with_types({"T", "Tidx"}, {{"T", kListNumber, kTypesSum}, {"Tidx", kListIndex}}));

}  // namespace
}  // namespace ef
