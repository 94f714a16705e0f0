// Type signature resolution and checking.
#include "ops/signature.h"

#include "core/errors.h"

namespace ef {

void resolve_signature(OpDef& op) {
  op.resolved_inputs.clear();
  op.signature_error.clear();
  op.list_input = -1;
  for (size_t k = 0; k < op.inputs.size(); ++k)
    if (!op.inputs[k].empty() && op.inputs[k].back() == '*') op.list_input = static_cast<int>(k);
  for (TypeAttr& a : op.type_attrs) {
    // A kernel beyond TF's list (AddV2 on strings, as TF's Add) is an extension, not an error.
    a.allowed = a.tf_allowed ? parse_type_list(a.tf_allowed) : ~uint32_t(0);
    // Without a kernel set: an op of any type ("T: type") moves elements, whatever their dtype;
    // one with TF's list computes, and takes the rarely used dtypes only where it says so.
    if (a.kernels == 0) a.kernels = a.allowed & (a.tf_allowed ? kTypesAll & ~kBitsRare : kTypesAll);
    a.allowed |= a.kernels;
  }
  if (!op.has_signature) return;
  if (op.input_types.size() != op.inputs.size()) {
    op.signature_error = str_cat(op.input_types.size(), " input types for ", op.inputs.size(), " inputs");
    return;
  }
  for (const std::string& s : op.input_types) {
    InputType it;
    for (size_t k = 0; k < op.type_attrs.size(); ++k)
      if (op.type_attrs[k].name == s) it.attr = static_cast<int>(k);
    if (it.attr < 0 && !s.empty()) {
      it.fixed = dtype_from_tf_name(s);
      if (it.fixed == DType::kInvalid) op.signature_error = str_cat("input type '", s, "' is neither a type attr nor a dtype");
    }
    op.resolved_inputs.push_back(it);
  }
}

namespace {

[[noreturn]] void throw_mismatch(const OpDef& op, size_t i, DType expected, DType got) {
  throw_error(Code::kInvalidArgument, "cannot compute ", op.name, " as input #", i, "(zero-based) was expected to be a ",
              tf_type_string(expected), " tensor but is a ", tf_type_string(got), " tensor");
}

void check_attr_value(const OpDef& op, const TypeAttr& a, DType t) {
  if (!dtype_in(t, a.allowed)) {
    throw_error(Code::kInvalidArgument, "Value for attr '", a.name, "' of ", tf_type_string(t),
                " is not in the list of allowed values: ", a.tf_allowed, "\n\t; NodeDef: {{node ", op.name, "}}");
  }
  if (!dtype_in(t, a.kernels)) throw_no_kernel(op, a.name.c_str(), t);
}

// The declared input that flat input i (of n) belongs to: the list input (list_input, anywhere)
// takes the tensors the others leave.
size_t declared_input(const OpDef& op, size_t n, size_t i) {
  const size_t declared = op.inputs.size();
  if (op.list_input < 0 || i < static_cast<size_t>(op.list_input)) return i;
  const size_t after = declared - 1 - op.list_input;  // declared inputs after the list
  if (n >= after && i >= n - after) return declared - (n - i);
  return op.list_input;
}

void check_arity(const OpDef& op, size_t n) {
  const size_t declared = op.inputs.size();
  if (op.list_input < 0 ? n == declared : n + 1 >= declared) return;
  throw_error(Code::kInvalidArgument, op.name, " expects ", op.list_input < 0 ? "" : "at least ",
              op.list_input < 0 ? declared : declared - 1, " inputs, got ", n);
}

template <typename DTypeAt>
void check(const OpDef& op, size_t n, DTypeAt dtype_at, const Attrs& attrs) {
  check_arity(op, n);
  if (!op.has_signature || !op.signature_error.empty()) return;
  constexpr size_t kMaxAttrs = 8;
  DType bound[kMaxAttrs];
  const size_t num_attrs = std::min(op.type_attrs.size(), kMaxAttrs);
  for (size_t k = 0; k < num_attrs; ++k) bound[k] = DType::kInvalid;
  const size_t declared = op.resolved_inputs.size();
  for (size_t i = 0; i < n && declared > 0; ++i) {
    const size_t k = declared_input(op, n, i);
    if (k >= declared) break;  // more inputs than declared: the arity check reports it
    const InputType& it = op.resolved_inputs[k];
    const DType t = dtype_at(i);
    if (it.attr < 0) {
      if (it.fixed != DType::kInvalid && t != it.fixed) throw_mismatch(op, i, it.fixed, t);
      continue;
    }
    if (static_cast<size_t>(it.attr) >= num_attrs) continue;
    DType& b = bound[it.attr];
    if (b == DType::kInvalid) {
      check_attr_value(op, op.type_attrs[it.attr], t);
      b = t;
    } else if (t != b) {
      throw_mismatch(op, i, b, t);
    }
  }
  // Attrs no input binds (DstT, dtype, out_type): check the value given. An attr an input binds
  // is TF's inferred attr: the input decides it, and kernels check what they read against it.
  if (attrs.empty()) return;
  for (size_t k = 0; k < num_attrs; ++k) {
    if (bound[k] != DType::kInvalid) continue;
    const AttrValue* v = attrs.find(op.type_attrs[k].name);
    if (const DType* d = v ? std::get_if<DType>(v) : nullptr) check_attr_value(op, op.type_attrs[k], *d);
  }
}

}  // namespace

void throw_no_kernel(const OpDef& op, const char* attr, DType t) {
  std::string kernels;
  for (const TypeAttr& a : op.type_attrs) {
    if (a.name != attr) continue;
    for (int v = 1; v < 32; ++v)
      if (a.kernels & (uint32_t(1) << v)) kernels += (kernels.empty() ? "" : ", ") + dtype_enum_name(static_cast<DType>(v));
  }
  throw_error(Code::kNotFound, "Could not find device for node: {{node ", op.name, "}} = ", op.name, "[", attr, "=",
              dtype_enum_name(t), "]\nAll kernels registered for op ", op.name, ":\n  device='CPU'; ", attr, " in [",
              kernels, "]");
}

void check_signature(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  check(op, inputs.size(), [&](size_t i) { return inputs[i]->dtype(); }, attrs);
}

void check_signature(const OpDef& op, const std::vector<DType>& inputs, const Attrs& attrs) {
  check(op, inputs.size(), [&](size_t i) { return inputs[i]; }, attrs);
}

}  // namespace ef
