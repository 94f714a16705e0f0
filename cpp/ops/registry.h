// The op registry: one OpDef per op (TF op type name, inputs, attrs, inference, kernels).
// It is the single source of truth: execute() dispatches through it, tests iterate over it.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/types.h"

namespace ef {

struct OpDef;

// What a kernel sees: its inputs and attrs; it allocates and fills its outputs.
struct KernelContext {
  const OpDef& op;
  const std::vector<Tensor>& inputs;
  const Attrs& attrs;
  std::vector<Tensor> outputs;
  // Set by the plan executor: an input only this step holds (its slot was moved in) may become an
  // elementwise op's output (TF's forward_input_or_allocate_output). Never for eager calls: a
  // gradient tape may still need their inputs.
  bool may_forward = false;

  const Tensor& input(size_t i) const { return inputs[i]; }
  size_t num_inputs() const { return inputs.size(); }
  // `forward`: whether the output may be a consumed input's memory (see may_forward). A kernel
  // that writes an output before reading all of its inputs passes false.
  TensorImpl* allocate_output(size_t i, DType dtype, const Shape& shape, bool forward = true);
  void set_output(size_t i, Tensor t);
};

// Static description used for graph building: dtypes and (partially known) shapes of inputs.
// `values` holds constant inputs when known (e.g. a reshape target), otherwise null.
struct InferContext {
  const OpDef& op;
  std::vector<DType> dtypes;
  std::vector<Shape> shapes;
  std::vector<Tensor> values;
  const Attrs& attrs;
  std::vector<DType> out_dtypes;
  std::vector<Shape> out_shapes;

  void set_output(size_t i, DType dtype, Shape shape);
};

using KernelFn = void (*)(KernelContext&);
using InferFn = void (*)(InferContext&);

// A kernel's own run of its op's inference over its concrete inputs: the checks and output shapes
// it shares with graph building.
InferContext infer_for_kernel(const KernelContext& c);

// A type attr of an op's TF signature ("T: {half, float, double}").
struct TypeAttr {
  std::string name;                  // "T", "Tidx", "DstT"
  const char* tf_allowed = nullptr;  // TF's allowed dtypes as its errors list them; null: any dtype
  uint32_t kernels = 0;              // dtypes with a kernel here; 0: every allowed value dtype
  uint32_t allowed = 0;              // derived: tf_allowed's bits (every dtype when null) and kernels
};

// An input's resolved type: the index of its type attr, or a fixed dtype.
struct InputType {
  int attr = -1;                      // index into OpDef::type_attrs, or -1
  DType fixed = DType::kInvalid;      // when attr < 0: the dtype the input must have (kInvalid: any)
};

struct OpDef {
  std::string name;                      // TF op type: "AddV2", "MatMul", "Sum"
  std::vector<std::string> inputs;       // input names; a trailing "*" marks a variadic list
  std::vector<std::string> attrs;        // attr names with defaults documented in the op file
  InferFn infer = nullptr;               // dtype/shape inference (graph mode, validation)
  KernelFn kernels[kNumDeviceTypes] = {nullptr, nullptr};
  bool stateful = false;                 // random, print, assign: never pruned or folded
  bool elementwise = false;              // candidates for fusion
  bool runs_functions = false;           // If/While/calls: run function attrs; never folded

  // TF's type signature. input_types[i] names the type attr typing input i ("T") or its fixed
  // dtype ("bool", "int32", "resource", "variant"); "" leaves the input to the kernel (list(type)
  // attrs such as If's Tin). A variadic input's entry covers each of its tensors. type_attrs
  // gives each type attr's dtypes; dtype-valued attrs given explicitly (DstT, dtype) are checked
  // against them too. execute() checks every call before inference or a kernel sees it.
  std::vector<std::string> input_types;
  std::vector<TypeAttr> type_attrs;
  // Derived by register_op from the two above.
  std::vector<InputType> resolved_inputs;
  int list_input = -1;          // the variadic input ("values*"), if any
  std::string signature_error;  // why the signature does not resolve (tests require it empty)
  bool has_signature = false;    // set by with_types (tests require it of every op)

  bool variadic() const { return !inputs.empty() && inputs.back().back() == '*'; }
  // Sets the type signature (chainable on a freshly built OpDef).
  OpDef with_types(std::vector<std::string> in, std::vector<TypeAttr> attrs) && {
    input_types = std::move(in);
    type_attrs = std::move(attrs);
    has_signature = true;
    return std::move(*this);
  }
};

// Builds a stateless OpDef (the common case); set further fields on the result as needed.
inline OpDef make_op(const char* name, std::vector<std::string> inputs, std::vector<std::string> attrs,
                     InferFn infer) {
  OpDef d;
  d.name = name;
  d.inputs = std::move(inputs);
  d.attrs = std::move(attrs);
  d.infer = infer;
  return d;
}

// Registration. Ops register from static initializers in their op-family files.
const OpDef& register_op(OpDef def);
const OpDef* find_op(const std::string& name);  // null when unknown
const OpDef& get_op(const std::string& name);   // throws NotFound when unknown
std::vector<const OpDef*> all_ops();

// Kernels live in cpp/kernels/<device>/ and attach to their op by name.
void register_kernel(const std::string& op_name, DeviceType device, KernelFn fn);

struct OpRegistrar {
  explicit OpRegistrar(OpDef def) { register_op(std::move(def)); }
};
struct KernelRegistrar {
  KernelRegistrar(const char* name, DeviceType device, KernelFn fn) { register_kernel(name, device, fn); }
};

#define EF_CONCAT_INNER(a, b) a##b
#define EF_CONCAT(a, b) EF_CONCAT_INNER(a, b)
#define EF_REGISTER_OP(...) \
  static ::ef::OpRegistrar EF_CONCAT(ef_op_registrar_, __COUNTER__)(__VA_ARGS__)
#define EF_REGISTER_KERNEL(NAME, DEVICE, FN) \
  static ::ef::KernelRegistrar EF_CONCAT(ef_kernel_registrar_, __COUNTER__)(NAME, DEVICE, FN)
#define EF_REGISTER_CPU_KERNEL(NAME, FN) EF_REGISTER_KERNEL(NAME, ::ef::DeviceType::kCPU, FN)

// TF's internal dtype spelling used in error messages ("float", "double", "int32", "half").
const char* tf_type_string(DType t);
// "[Op:AddV2]"-style suffix appended to eager errors.
std::string op_suffix(const OpDef& op);

}  // namespace ef
