// tf.data op definitions (TF's names): dataset ops output a scalar variant holding a dataset
// (cpp/kernels/data/); iterators are resource handles. Every dataset op carries its element's
// output_types / output_shapes, as in TF, so graphs know an element's structure without running.
#include "ops/registry.h"

namespace ef {
namespace {

void infer_dataset(InferContext& c) { c.set_output(0, DType::kVariant, Shape()); }
void infer_iterator(InferContext& c) { c.set_output(0, DType::kResource, Shape()); }
void infer_none(InferContext&) {}
void infer_cardinality(InferContext& c) { c.set_output(0, DType::kInt64, Shape()); }
void infer_has_value(InferContext& c) { c.set_output(0, DType::kBool, Shape()); }
void infer_matching_files(InferContext& c) { c.set_output(0, DType::kString, Shape({-1})); }

void infer_get_next(InferContext& c) {
  auto types = c.attrs.get<std::vector<DType>>("output_types", {});
  auto shapes = c.attrs.get<std::vector<Shape>>("output_shapes", {});
  for (size_t i = 0; i < types.size(); ++i)
    c.set_output(i, types[i], i < shapes.size() ? shapes[i] : Shape::unknown_rank());
}

const std::vector<std::string> kElement = {"output_types", "output_shapes"};

std::vector<std::string> with_element(std::vector<std::string> attrs) {
  attrs.insert(attrs.end(), kElement.begin(), kElement.end());
  return attrs;
}

OpDef dataset(const char* name, std::vector<std::string> inputs, std::vector<std::string> attrs,
              std::vector<std::string> types) {
  return make_op(name, std::move(inputs), std::move(attrs), infer_dataset).with_types(std::move(types), {});
}

OpDef function_dataset(OpDef d) {
  d.runs_functions = true;
  return d;
}

OpDef stateful(OpDef d) {
  d.stateful = true;
  return d;
}

}  // namespace

// Sources. components: list(type) Toutput_types; RangeDataset's output_types[0] is its dtype.
EF_REGISTER_OP(dataset("TensorSliceDataset", {"components*"}, {"Toutput_types", "output_shapes", "is_files"}, {""}));
EF_REGISTER_OP(dataset("TensorDataset", {"components*"}, {"Toutput_types", "output_shapes"}, {""}));
EF_REGISTER_OP(dataset("RangeDataset", {"start", "stop", "step"}, kElement, {"int64", "int64", "int64"}));
// File sources: the element (one string scalar, a line) is fixed, so no element attrs. Reading
// files is state outside the graph: never folded.
EF_REGISTER_OP(stateful(dataset("TextLineDataset", {"filenames", "compression_type", "buffer_size"}, {},
                                {"string", "string", "int64"})));
EF_REGISTER_OP(stateful(make_op("MatchingFiles", {"pattern"}, {}, infer_matching_files).with_types({"string"}, {})));

// Transformations that run a function attr: f / predicate over the element and other_arguments
// (the captured tensors, typed by Targuments).
EF_REGISTER_OP(function_dataset(dataset("MapDataset", {"input_dataset", "other_arguments*"},
                                        with_element({"f", "Targuments", "use_inter_op_parallelism",
                                                      "preserve_cardinality"}),
                                        {"variant", ""})));
EF_REGISTER_OP(function_dataset(dataset("ParallelMapDatasetV2", {"input_dataset", "other_arguments*", "num_parallel_calls"},
                                        with_element({"f", "Targuments", "use_inter_op_parallelism", "deterministic",
                                                      "preserve_cardinality"}),
                                        {"variant", "", "int64"})));
EF_REGISTER_OP(function_dataset(dataset("FilterDataset", {"input_dataset", "other_arguments*"},
                                        with_element({"predicate", "Targuments"}), {"variant", ""})));

EF_REGISTER_OP(function_dataset(dataset("TakeWhileDataset", {"input_dataset", "other_arguments*"},
                                        with_element({"predicate", "Targuments"}), {"variant", ""})));
// f returns a dataset per element; InterleaveDataset keeps cycle_length of them open (-1: one per
// core) and takes block_length elements from each in turn.
EF_REGISTER_OP(function_dataset(dataset("FlatMapDataset", {"input_dataset", "other_arguments*"},
                                        with_element({"f", "Targuments"}), {"variant", ""})));
EF_REGISTER_OP(function_dataset(dataset("InterleaveDataset",
                                        {"input_dataset", "other_arguments*", "cycle_length", "block_length"},
                                        with_element({"f", "Targuments"}), {"variant", "", "int64", "int64"})));
// Each open cycle element is iterated by its own thread; the output keeps interleave's order.
EF_REGISTER_OP(function_dataset(dataset("ParallelInterleaveDatasetV4",
                                        {"input_dataset", "other_arguments*", "cycle_length", "block_length",
                                         "buffer_output_elements", "prefetch_input_elements", "num_parallel_calls"},
                                        with_element({"f", "deterministic", "Targuments"}),
                                        {"variant", "", "int64", "int64", "int64", "int64", "int64"})));
// from_generator: init_func(init_func_other_args) -> state, next_func(state) -> element until it
// raises OutOfRange, finalize_func(state). TF's op also passes other arguments to next_func and
// finalize_func (two more lists); from_generator never uses them, and the registry has one list.
EF_REGISTER_OP(function_dataset(dataset("GeneratorDataset", {"init_func_other_args*"},
                                        with_element({"init_func", "next_func", "finalize_func", "Tinit_func_args"}),
                                        {""})));

EF_REGISTER_OP(dataset("BatchDatasetV2", {"input_dataset", "batch_size", "drop_remainder"},
                       with_element({"parallel_copy"}), {"variant", "int64", "bool"}));
// padded_shapes: an attr here (TF's PaddedBatchDatasetV2 takes them as a second list of tensors,
// which the registry's one list input cannot express); -1 dims pad to the batch's largest.
EF_REGISTER_OP(dataset("_PaddedBatchDataset", {"input_dataset", "batch_size", "drop_remainder", "padding_values*"},
                       with_element({"padded_shapes", "Toutput_types"}), {"variant", "int64", "bool", ""}));
// Each element: one variant scalar per input component, a dataset of that component's window.
EF_REGISTER_OP(dataset("WindowDataset", {"input_dataset", "size", "shift", "stride", "drop_remainder"}, kElement,
                       {"variant", "int64", "int64", "int64", "bool"}));
EF_REGISTER_OP(dataset("UnbatchDataset", {"input_dataset"}, kElement, {"variant"}));
// filename "": cache in memory; otherwise in files named after it (TF's names, eagerflow's format).
EF_REGISTER_OP(dataset("CacheDataset", {"input_dataset", "filename"}, kElement, {"variant", "string"}));
EF_REGISTER_OP(dataset("RepeatDataset", {"input_dataset", "count"}, kElement, {"variant", "int64"}));
EF_REGISTER_OP(dataset("TakeDataset", {"input_dataset", "count"}, kElement, {"variant", "int64"}));
EF_REGISTER_OP(dataset("SkipDataset", {"input_dataset", "count"}, kElement, {"variant", "int64"}));
// seed, seed2: both zero draws random seeds; reshuffle_each_iteration (default true).
EF_REGISTER_OP(dataset("ShuffleDataset", {"input_dataset", "buffer_size", "seed", "seed2"},
                       with_element({"reshuffle_each_iteration"}), {"variant", "int64", "int64", "int64"}));
// buffer_size: -1 (tf.data.AUTOTUNE) picks the size; 0 prefetches nothing.
EF_REGISTER_OP(dataset("PrefetchDataset", {"input_dataset", "buffer_size"}, kElement, {"variant", "int64"}));
EF_REGISTER_OP(dataset("ConcatenateDataset", {"input_dataset", "another_dataset"}, kElement, {"variant", "variant"}));
EF_REGISTER_OP(dataset("ZipDataset", {"input_datasets*"}, with_element({"N"}), {"variant"}));

// Iterators. The handle owns the iterator state; it is freed with the last reference.
EF_REGISTER_OP(stateful(make_op("AnonymousIteratorV3", {}, kElement, infer_iterator).with_types({}, {})));
EF_REGISTER_OP(stateful(make_op("MakeIterator", {"dataset", "iterator"}, {}, infer_none)
                            .with_types({"variant", "resource"}, {})));
EF_REGISTER_OP(stateful(make_op("IteratorGetNext", {"iterator"}, kElement, infer_get_next).with_types({"resource"}, {})));
EF_REGISTER_OP(stateful(make_op("IteratorGetNextAsOptional", {"iterator"}, kElement, infer_dataset)
                            .with_types({"resource"}, {})));
EF_REGISTER_OP(make_op("DatasetCardinality", {"input_dataset"}, {}, infer_cardinality).with_types({"variant"}, {}));


// Optionals: a variant holding an element (components typed by Toutput_types) or nothing.
EF_REGISTER_OP(make_op("OptionalFromValue", {"components*"}, {"Toutput_types"}, infer_dataset).with_types({""}, {}));
EF_REGISTER_OP(make_op("OptionalNone", {}, {}, infer_dataset).with_types({}, {}));
EF_REGISTER_OP(make_op("OptionalHasValue", {"optional"}, {}, infer_has_value).with_types({"variant"}, {}));
EF_REGISTER_OP(make_op("OptionalGetValue", {"optional"}, kElement, infer_get_next).with_types({"variant"}, {}));

}  // namespace ef
