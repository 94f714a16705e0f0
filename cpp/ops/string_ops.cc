// Op definitions of tf.strings' byte-level ops: StringJoin, StringLength, StringSplit(V2),
// StringUpper/Lower/Strip, Substr, ReduceJoin, StringToNumber, AsString and the hash-bucket ops.
#include "ops/array_shapes.h"
#include "ops/broadcast_shapes.h"
#include "ops/types.h"

namespace ef {
namespace {

// StringJoin: every input is a scalar or has the one common shape (no general broadcasting).
void infer_string_join(InferContext& c) {
  Shape out;
  bool have = false;
  for (size_t i = 0; i < c.dtypes.size(); ++i) {
    check_same_dtype(c.op, DType::kString, c.dtypes[i], static_cast<int>(i));
    if (c.shapes[i].rank() == 0) continue;
    if (!have) {
      out = c.shapes[i];
      have = true;
    } else if (out.fully_defined() && c.shapes[i].fully_defined() && out != c.shapes[i]) {
      throw_error(Code::kInvalidArgument, "Input shapes do not match: ", out.to_list_string(), " vs. ",
                  c.shapes[i].to_list_string());
    }
  }
  c.set_output(0, DType::kString, out);
}

void infer_string_length(InferContext& c) {
  check_same_dtype(c.op, DType::kString, c.dtypes[0], 0);
  c.set_output(0, DType::kInt32, c.shapes[0]);
}

void require_rank(const Shape& s, int rank) {
  EF_INVALID(!s.rank_known() || s.rank() == rank, "Shape must be rank ", rank, " but is rank ", s.rank());
}

// StringSplit / StringSplitV2: a vector of strings and a scalar separator -> the SparseTensor parts
// (indices [n, 2], values [n], dense_shape [2]).
void infer_string_split(InferContext& c) {
  require_rank(c.shapes[0], 1);
  require_rank(c.shapes[1], 0);
  c.set_output(0, DType::kInt64, Shape({-1, 2}));
  c.set_output(1, DType::kString, Shape({-1}));
  c.set_output(2, DType::kInt64, Shape({2}));
}

void infer_same_string(InferContext& c) { c.set_output(0, DType::kString, c.shapes[0]); }

// Substr: pos and len share a shape; they broadcast against the input.
void infer_substr(InferContext& c) {
  const Shape &pos = c.shapes[1], &len = c.shapes[2];
  if (pos.rank_known() && len.rank_known())
    EF_INVALID(pos.rank() == len.rank(), "Shape must be rank ", len.rank(), " but is rank ", pos.rank());
  c.set_output(0, DType::kString, broadcast_shapes(c.shapes[0], pos));
}

// ReduceJoin: the reduced dims are dropped (kept as 1 with keep_dims) when the axes are known.
void infer_reduce_join(InferContext& c) {
  const Shape& in = c.shapes[0];
  const TensorImpl* axes_t = input_value(c, 1);
  if (!axes_t || !in.rank_known()) return c.set_output(0, DType::kString, Shape::unknown_rank());
  const int rank = in.rank();
  std::vector<bool> reduced(rank, false);
  for (int64_t a : tensor_to_int_vector(*axes_t)) {
    // The kernel raises TF's OutOfRangeError first; this is TF's build-time (ValueError) text.
    EF_INVALID(a >= -rank && a < rank, "Invalid reduction dimension ", a, " for input with ", rank, " dimensions.");
    const int d = static_cast<int>(a < 0 ? a + rank : a);
    EF_INVALID(!reduced[d], "Duplicate reduction dimension ", d);
    reduced[d] = true;
  }
  const bool keep = c.attrs.get<bool>("keep_dims", false);
  std::vector<int64_t> dims;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) dims.push_back(in[d]);
    else if (keep) dims.push_back(1);
  }
  c.set_output(0, DType::kString, Shape(dims));
}

void infer_to_number(InferContext& c) {
  c.set_output(0, c.attrs.get<DType>("out_type", DType::kFloat32), c.shapes[0]);
}

void infer_as_string(InferContext& c) { c.set_output(0, DType::kString, c.shapes[0]); }

void infer_hash_bucket(InferContext& c) {
  const int64_t n = c.attrs.get<int64_t>("num_buckets", 0);
  EF_INVALID(n >= 1, "Value for attr 'num_buckets' of ", n, " must be at least minimum 1");
  c.set_output(0, DType::kInt64, c.shapes[0]);
}

OpDef strings_in_out(const char* name, std::vector<std::string> attrs) {
  OpDef d = make_op(name, {"input"}, std::move(attrs), infer_same_string).with_types({"string"}, {});
  d.elementwise = true;
  return d;
}

EF_REGISTER_OP(make_op("StringJoin", {"inputs*"}, {"separator", "N"}, infer_string_join).with_types({"string"}, {}));
// unit: "BYTE" (default) or "UTF8_CHAR".
EF_REGISTER_OP([] {
  OpDef d = make_op("StringLength", {"input"}, {"unit"}, infer_string_length).with_types({"string"}, {});
  d.elementwise = true;
  return d;
}());
// skip_empty (default true): the delimiter is a set of single-byte separators; "" splits into bytes.
EF_REGISTER_OP(make_op("StringSplit", {"input", "delimiter"}, {"skip_empty"}, infer_string_split)
                   .with_types({"string", "string"}, {}));
// maxsplit (default -1: no limit); sep "" splits on runs of ASCII whitespace.
EF_REGISTER_OP(make_op("StringSplitV2", {"input", "sep"}, {"maxsplit"}, infer_string_split)
                   .with_types({"string", "string"}, {}));
// encoding: "" (ASCII letters only) or "utf-8".
EF_REGISTER_OP(strings_in_out("StringUpper", {"encoding"}));
EF_REGISTER_OP(strings_in_out("StringLower", {"encoding"}));
EF_REGISTER_OP(strings_in_out("StringStrip", {}));
EF_REGISTER_OP(make_op("Substr", {"input", "pos", "len"}, {"T", "unit"}, infer_substr)
                   .with_types({"string", "T", "T"}, {{"T", kListIndex}}));
EF_REGISTER_OP(make_op("ReduceJoin", {"inputs", "reduction_indices"}, {"keep_dims", "separator"}, infer_reduce_join)
                   .with_types({"string", "int32"}, {}));
EF_REGISTER_OP(make_op("StringToNumber", {"string_tensor"}, {"out_type"}, infer_to_number)
                   .with_types({"string"}, {{"out_type", "float, double, int32, int64, uint32, uint64"}}));
// precision, width (-1: unset), scientific, shortest, fill ("", or one of " +-0#").
EF_REGISTER_OP(make_op("AsString", {"input"}, {"T", "precision", "scientific", "shortest", "width", "fill"},
                       infer_as_string)
                   .with_types({"T"}, {{"T",
                                        "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
                                        "uint32, uint64, complex64, complex128, bool, variant, string",
                                        kTypesReal | kBitsRare | kTypesComplex | kTypesBool | kTypesString}}));
EF_REGISTER_OP(make_op("StringToHashBucketFast", {"input"}, {"num_buckets"}, infer_hash_bucket)
                   .with_types({"string"}, {}));
// key: two integers, SipHash's 128-bit key.
EF_REGISTER_OP(make_op("StringToHashBucketStrong", {"input"}, {"num_buckets", "key"}, infer_hash_bucket)
                   .with_types({"string"}, {}));

}  // namespace
}  // namespace ef
