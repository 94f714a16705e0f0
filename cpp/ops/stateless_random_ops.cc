// Op definitions: the counter-based random ops of tf.random.stateless_* and tf.random.Generator
// (StatelessRandom*V2 over a key and counter, StatelessRandomGetKeyCounter, RngReadAndSkip),
// StatelessMultinomial and the stateful Multinomial. TF types key and counter as uint64; here
// they are int64 tensors holding the same 64 bits (eagerflow has no uint64 dtype).
#include "ops/op_util.h"
#include "ops/random_shape.h"

namespace ef {
namespace {

void infer_key_counter(InferContext& c) {
  c.set_output(0, DType::kInt64, Shape({1}));
  c.set_output(1, DType::kInt64, Shape({2}));
  if (c.op.name == "StatelessRandomGetKeyCounterAlg") c.set_output(2, DType::kInt32, Shape({}));
}

void infer_get_alg(InferContext& c) { c.set_output(0, DType::kInt32, Shape({})); }

void infer_v2(InferContext& c) { c.set_output(0, c.attrs.get<DType>("dtype", DType::kFloat32), random_output_shape(c)); }

void infer_read_and_skip(InferContext& c) { c.set_output(0, DType::kInt64, Shape({3})); }

// [batch, num_samples] from logits [batch, classes] and the num_samples scalar.
void infer_multinomial(InferContext& c) {
  int64_t batch = c.shapes[0].rank() == 2 ? c.shapes[0][0] : kUnknownDim;
  int64_t n = kUnknownDim;
  if (c.values.size() > 1 && c.values[1] && c.values[1]->num_elements() == 1)
    n = tensor_to_int_vector(*c.values[1])[0];
  c.set_output(0, c.attrs.get<DType>("output_dtype", DType::kInt64), Shape({batch, n}));
}

OpDef v2(const char* name, std::vector<std::string> inputs, std::vector<std::string> types, const char* dtypes) {
  OpDef d = make_op(name, std::move(inputs), {"dtype", "Tshape"}, infer_v2);
  return std::move(d).with_types(std::move(types), {{"dtype", dtypes}, {"Tshape", kListIndex}});
}

EF_REGISTER_OP(v2("StatelessRandomUniformV2", {"shape", "key", "counter", "alg"},
                  {"Tshape", "int64", "int64", "int32"}, kListFloatOnly));
EF_REGISTER_OP(v2("StatelessRandomNormalV2", {"shape", "key", "counter", "alg"},
                  {"Tshape", "int64", "int64", "int32"}, kListFloatOnly));
EF_REGISTER_OP(v2("StatelessTruncatedNormalV2", {"shape", "key", "counter", "alg"},
                  {"Tshape", "int64", "int64", "int32"}, kListFloatOnly));
EF_REGISTER_OP(v2("StatelessRandomUniformIntV2", {"shape", "key", "counter", "alg", "minval", "maxval"},
                  {"Tshape", "int64", "int64", "int32", "dtype", "dtype"}, "int32, int64, uint32, uint64"));
EF_REGISTER_OP(v2("StatelessRandomUniformFullIntV2", {"shape", "key", "counter", "alg"},
                  {"Tshape", "int64", "int64", "int32"}, "int32, int64, uint32, uint64"));

EF_REGISTER_OP(make_op("StatelessRandomGetKeyCounter", {"seed"}, {"Tseed"}, infer_key_counter)
                   .with_types({"Tseed"}, {{"Tseed", kListIndex}}));
EF_REGISTER_OP(make_op("StatelessRandomGetKeyCounterAlg", {"seed"}, {"Tseed"}, infer_key_counter)
                   .with_types({"Tseed"}, {{"Tseed", kListIndex}}));
EF_REGISTER_OP(make_op("StatelessRandomGetAlg", {}, {}, infer_get_alg).with_types({}, {}));

EF_REGISTER_OP([] {
  OpDef d = make_op("RngReadAndSkip", {"resource", "alg", "delta"}, {}, infer_read_and_skip);
  d.stateful = true;
  // TF types delta as uint64; an int64 holds its bits here.
  return std::move(d).with_types({"resource", "int32", "int64"}, {});
}());

EF_REGISTER_OP([] {
  OpDef d = make_op("NonDeterministicInts", {"shape"}, {"dtype", "shape_dtype"}, infer_v2);
  d.stateful = true;
  return std::move(d).with_types({"shape_dtype"}, {{"dtype", "int32, int64, uint32, uint64"}, {"shape_dtype"}});
}());

EF_REGISTER_OP(make_op("StatelessMultinomial", {"logits", "num_samples", "seed"}, {"T", "Tseed", "output_dtype"},
                       infer_multinomial)
                   .with_types({"T", "int32", "Tseed"}, {{"T", kListRealNumber, kTypesReal},
                                                         {"Tseed", kListIndex},
                                                         {"output_dtype", kListIndex}}));

EF_REGISTER_OP([] {
  OpDef d = make_op("Multinomial", {"logits", "num_samples"}, {"T", "seed", "seed2", "output_dtype"}, infer_multinomial);
  d.stateful = true;
  return std::move(d).with_types({"T", "int32"}, {{"T", kListRealNumber, kTypesReal}, {"output_dtype", kListIndex}});
}());

}  // namespace
}  // namespace ef
