// Op definitions: Softmax and LogSoftmax (over the last axis of logits), the softmax cross
// entropies, L2Loss, LeakyRelu and BiasAdd (TF's nn ops) with their gradient helper ops.
#include "ops/array_shapes.h"
#include "ops/broadcast_shapes.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_softmax(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesFloat);
  if (c.shapes[0].rank() == 0)
    throw_error(Code::kInvalidArgument, "logits must have >= 1 dimension, got ", c.shapes[0].to_list_string());
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

OpDef softmax(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"logits"};
  d.infer = infer_softmax;
  return std::move(d).with_types({"T"}, {{"T", kListFloatOnly}});
}

EF_REGISTER_OP(softmax("Softmax"));
EF_REGISTER_OP(softmax("LogSoftmax"));

// features [batch, classes] and int labels [batch] -> loss [batch], backprop [batch, classes].
void infer_sparse_xent(InferContext& c) {
  const Shape& f = c.shapes[0];
  const Shape& l = c.shapes[1];
  if (f.rank_known() && f.rank() != 2)
    throw_error(Code::kInvalidArgument, "logits must be 2-D, but got shape ", f.to_list_string());
  if (l.rank_known() && l.rank() != 1)
    throw_error(Code::kInvalidArgument, "labels must be 1-D, but got shape ", l.to_list_string());
  int64_t batch = -1, classes = -1;
  if (f.rank_known()) batch = f[0], classes = f[1];
  if (l.rank_known() && l[0] >= 0) {
    if (batch >= 0 && l[0] != batch)
      throw_error(Code::kInvalidArgument, "logits and labels must have the same first dimension, got logits shape ",
                  f.to_list_string(), " and labels shape ", l.to_list_string());
    batch = l[0];
  }
  if (classes == 0)
    throw_error(Code::kInvalidArgument, "Must have at least one class, but got logits shape ", f.to_list_string());
  c.set_output(0, c.dtypes[0], Shape({batch}));
  c.set_output(1, c.dtypes[0], Shape({batch, classes}));
}

// features and labels [batch, classes] (either may broadcast a dim of 1) -> loss, backprop.
void infer_xent(InferContext& c) {
  const Shape& f = c.shapes[0];
  const Shape& l = c.shapes[1];
  if ((f.rank_known() && f.rank() != 2) || (l.rank_known() && l.rank() != 2))
    throw_error(Code::kInvalidArgument, "logits and labels must be either 2-dimensional, or broadcasted to be "
                "2-dimensional");
  Shape out = f.rank_known() && l.rank_known() ? broadcast_shapes(f, l) : (f.rank_known() ? f : Shape({-1, -1}));
  if (!out.rank_known()) out = Shape({-1, -1});
  c.set_output(0, c.dtypes[0], Shape({out[0]}));
  c.set_output(1, c.dtypes[0], out);
}

void infer_l2_loss(InferContext& c) { c.set_output(0, c.dtypes[0], Shape({})); }
void infer_same(InferContext& c) { c.set_output(0, c.dtypes[0], c.shapes[0]); }

bool nchw(const InferContext& c) { return c.attrs.get<std::string>("data_format", "NHWC") == "NCHW"; }

void infer_bias_add(InferContext& c) {
  const Shape& v = c.shapes[0];
  const Shape& b = c.shapes[1];
  if (b.rank_known() && b.rank() != 1)
    throw_error(Code::kInvalidArgument, "Biases must be 1D: ", b.to_list_string());
  if (v.rank_known()) {
    if (v.rank() < 2) throw_error(Code::kInvalidArgument, "Input tensor must be at least 2D: ", v.to_list_string());
    const int64_t ch = v[nchw(c) ? 1 : v.rank() - 1];
    if (b.rank_known() && ch >= 0 && b[0] >= 0 && ch != b[0])
      throw_error(Code::kInvalidArgument, "Must provide as many biases as the last dimension of the input tensor: ",
                  b.to_list_string(), " vs. ", v.to_list_string());
  }
  c.set_output(0, c.dtypes[0], v);
}

void infer_bias_add_grad(InferContext& c) {
  const Shape& g = c.shapes[0];
  if (!g.rank_known()) return c.set_output(0, c.dtypes[0], Shape({-1}));
  if (g.rank() < 2) throw_error(Code::kInvalidArgument, "Input tensor must be at least 2D: ", g.to_list_string());
  c.set_output(0, c.dtypes[0], Shape({g[nchw(c) ? 1 : g.rank() - 1]}));
}

// input [..., n], scalar k -> values and indices [..., k] (k known only when constant).
void infer_top_k(InferContext& c) {
  const Shape& in = c.shapes[0];
  if (in.rank_known() && in.rank() < 1)
    throw_error(Code::kInvalidArgument, "input must be >= 1-D, got shape ", in.to_list_string());
  if (c.shapes[1].rank_known() && c.shapes[1].rank() != 0)
    throw_error(Code::kInvalidArgument, "k must be 0-D, got shape ", c.shapes[1].to_list_string());
  const TensorImpl* kv = input_value(c, 1);
  int64_t k = -1;
  if (kv) {
    k = tensor_to_int_vector(*kv).at(0);
    if (k < 0) throw_error(Code::kInvalidArgument, "Need k >= 0, got ", k);
    if (in.rank_known() && in[in.rank() - 1] >= 0 && in[in.rank() - 1] < k)
      throw_error(Code::kInvalidArgument, "input must have at least k columns. Had ", in[in.rank() - 1], ", needed ",
                  k);
  }
  Shape out = in.rank_known() ? in : Shape::unknown_rank();
  if (out.rank_known()) out.set_dim(out.rank() - 1, k);
  c.set_output(0, c.dtypes[0], out);
  c.set_output(1, c.attrs.get<DType>("index_type", DType::kInt32), out);
}

// predictions [batch, classes] float, targets [batch] -> bool [batch].
void infer_in_top_k(InferContext& c) {
  const Shape& p = c.shapes[0];
  const Shape& t = c.shapes[1];
  if (p.rank_known() && p.rank() != 2)
    throw_error(Code::kInvalidArgument, "predictions must be 2-dimensional");
  if (t.rank_known() && t.rank() != 1) throw_error(Code::kInvalidArgument, "targets must be 1-dimensional");
  if (c.shapes[2].rank_known() && c.shapes[2].rank() != 0)
    throw_error(Code::kInvalidArgument, "k must be 0 D, got shape ", c.shapes[2].to_list_string());
  if (p.rank_known() && t.rank_known() && p[0] >= 0 && t[0] >= 0 && p[0] != t[0])
    throw_error(Code::kInvalidArgument, "First dimension of predictions ", p[0], " must match length of targets ",
                t[0]);
  c.set_output(0, DType::kBool, Shape({p.rank_known() ? p[0] : int64_t(-1)}));
}

// TF's allowed list of TopKV2, in the order its errors print it (realnumbertypes, no quantized).
constexpr const char* kListTopK =
    "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64";

EF_REGISTER_OP(make_op("TopKV2", {"input", "k"}, {"sorted", "T", "Tk", "index_type"}, infer_top_k)
                   .with_types({"T", "Tk"},
                               {{"T", kListTopK, kTypesReal | kBitsWideUInt | kBitsBFloat16}, {"Tk", kListIndex16}}));
EF_REGISTER_OP(make_op("InTopKV2", {"predictions", "targets", "k"}, {"T"}, infer_in_top_k)
                   .with_types({"float", "T", "T"}, {{"T", kListIndex}}));
EF_REGISTER_OP(make_op("SparseSoftmaxCrossEntropyWithLogits", {"features", "labels"}, {"T", "Tlabels"},
                       infer_sparse_xent)
                   .with_types({"T", "Tlabels"}, {{"T", kListFloatOnly}, {"Tlabels", kListIndex}}));
EF_REGISTER_OP(make_op("SoftmaxCrossEntropyWithLogits", {"features", "labels"}, {"T"}, infer_xent)
                   .with_types({"T", "T"}, {{"T", kListFloatOnly}}));
EF_REGISTER_OP(make_op("L2Loss", {"t"}, {"T"}, infer_l2_loss).with_types({"T"}, {{"T", kListFloatOnly}}));
EF_REGISTER_OP(make_op("LeakyRelu", {"features"}, {"alpha", "T"}, infer_same)
                   .with_types({"T"}, {{"T", kListFloatOnly}}));
EF_REGISTER_OP(make_op("ReluGrad", {"gradients", "features"}, {"T"}, infer_same)
                   .with_types({"T", "T"}, {{"T", kListFloatOnly}}));
EF_REGISTER_OP(make_op("LeakyReluGrad", {"gradients", "features"}, {"alpha", "T"}, infer_same)
                   .with_types({"T", "T"}, {{"T", kListFloatOnly}}));
EF_REGISTER_OP(make_op("BiasAdd", {"value", "bias"}, {"T", "data_format"}, infer_bias_add)
                   .with_types({"T", "T"}, {{"T", kListNumber, kTypesNumeric}}));
EF_REGISTER_OP(make_op("BiasAddGrad", {"out_backprop"}, {"T", "data_format"}, infer_bias_add_grad)
                   .with_types({"T"}, {{"T", kListNumber, kTypesNumeric}}));

}  // namespace
}  // namespace ef
