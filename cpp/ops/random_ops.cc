// Op definitions: stateful random ops (RandomStandardNormal, RandomUniform, RandomUniformInt,
// TruncatedNormal, RandomShuffle). Attrs: dtype (Tout for RandomUniformInt), seed, seed2 (default 0).
#include "ops/op_util.h"
#include "ops/random_shape.h"

namespace ef {

Shape random_output_shape(const InferContext& c) {
  if (c.values.size() > 0 && c.values[0]) {
    std::vector<int64_t> dims = tensor_to_int_vector(*c.values[0]);
    return Shape(dims);
  }
  const Shape& s = c.shapes[0];
  if (s.rank() == 1 && s[0] >= 0) return Shape(std::vector<int64_t>(static_cast<size_t>(s[0]), kUnknownDim));
  return Shape::unknown_rank();
}

namespace {

void check_shape_input_type(const InferContext& c) {
  if (c.dtypes[0] != DType::kInt32 && c.dtypes[0] != DType::kInt64)
    throw_error(Code::kInvalidArgument, "Value for attr 'T' of ", tf_type_string(c.dtypes[0]),
                " is not in the list of allowed values: int32, int64\n\t; NodeDef: {{node ", c.op.name, "}}");
}

void infer_random_float(InferContext& c) {
  check_shape_input_type(c);
  DType dt = c.attrs.get<DType>("dtype", DType::kFloat32);
  if (!dtype_is_floating(dt))
    throw_error(Code::kInvalidArgument, "Value for attr 'dtype' of ", tf_type_string(dt),
                " is not in the list of allowed values: half, bfloat16, float, double");
  c.set_output(0, dt, random_output_shape(c));
}

void infer_random_uniform_int(InferContext& c) {
  check_shape_input_type(c);
  check_same_dtype(c.op, c.dtypes[1], c.dtypes[2], 2);
  if (c.dtypes[1] != DType::kInt32 && c.dtypes[1] != DType::kInt64)
    throw_error(Code::kInvalidArgument, "Value for attr 'Tout' of ", tf_type_string(c.dtypes[1]),
                " is not in the list of allowed values: int32, int64");
  c.set_output(0, c.dtypes[1], random_output_shape(c));
}

OpDef random_float(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"shape"};
  d.attrs = {"dtype", "seed", "seed2"};
  d.infer = infer_random_float;
  d.stateful = true;
  return std::move(d).with_types({"T"}, {{"dtype", kListFloatOnly}, {"T", kListIndex}});
}

EF_REGISTER_OP(random_float("RandomStandardNormal"));
EF_REGISTER_OP(random_float("RandomUniform"));
EF_REGISTER_OP(random_float("TruncatedNormal"));

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "RandomUniformInt";
  d.inputs = {"shape", "minval", "maxval"};
  d.attrs = {"Tout", "seed", "seed2"};
  d.infer = infer_random_uniform_int;
  d.stateful = true;
  return std::move(d).with_types({"T", "Tout", "Tout"}, {{"Tout", kListIndex}, {"T", kListIndex}});
}());

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "RandomShuffle";
  d.inputs = {"value"};
  d.attrs = {"seed", "seed2"};
  d.infer = infer_same_as_input0;
  d.stateful = true;
  return std::move(d).with_types({"T"}, {{"T"}});
}());

}  // namespace
}  // namespace ef
