// Checks op calls against their TF type signature (OpDef::input_types / type_attrs), so no
// inference function or kernel ever sees a dtype it was not written for.
#pragma once
#include <vector>

#include "ops/registry.h"

namespace ef {

// Resolves OpDef::input_types against type_attrs (register_op calls it); problems go to
// OpDef::signature_error.
void resolve_signature(OpDef& op);

// InvalidArgument with TF's eager text for a dtype TF's signature rejects ("Value for attr 'T' of
// string is not in the list of allowed values: ...", "cannot compute AddV2 as input #1(zero-based)
// was expected to be a int32 tensor but is a float tensor"); NotFound ("Could not find device for
// node") for a dtype TF accepts but no kernel here takes.
void check_signature(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs);
// NotFound as TF raises it when no kernel takes dtype `t` for attr `attr` of `op`.
[[noreturn]] void throw_no_kernel(const OpDef& op, const char* attr, DType t);
void check_signature(const OpDef& op, const std::vector<DType>& inputs, const Attrs& attrs);

}  // namespace ef
