// Shared checks and inference rules used by many op definitions and kernels.
#pragma once
#include <initializer_list>
#include <string>

#include "ops/registry.h"

namespace ef {

// Throws InvalidArgument: "Value for attr 'T' of string is not in the list of allowed values: ..."
void check_type(const OpDef& op, DType t, unsigned types);
// Throws InvalidArgument: "cannot compute AddV2 as input #1(zero-based) was expected to be a
// int32 tensor but is a float tensor"
void check_same_dtype(const OpDef& op, DType expected, DType got, int input_index);
// Normalizes a possibly negative axis against `rank`; throws InvalidArgument when out of range.
int normalize_axis(const OpDef& op, int64_t axis, int rank);

// Common inference rules.
void infer_same_as_input0(InferContext& c);            // unary elementwise
void infer_broadcast_binary(InferContext& c);          // out dtype = input dtype
void infer_broadcast_compare(InferContext& c);         // out dtype = bool

}  // namespace ef
