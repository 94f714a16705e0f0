// Op registry storage and lookup.
#include "ops/registry.h"

#include <map>
#include <memory>
#include <mutex>

#include "core/buffer_pool.h"
#include "core/errors.h"
#include "ops/signature.h"

namespace ef {

namespace {
std::map<std::string, std::unique_ptr<OpDef>>& table() {
  static auto* t = new std::map<std::string, std::unique_ptr<OpDef>>();
  return *t;
}
}  // namespace

// Static initializers run in any order across files: whichever of an op and its kernels
// registers first creates the entry, the others fill it in.
const OpDef& register_op(OpDef def) {
  auto& slot = table()[def.name];
  if (!slot) slot = std::make_unique<OpDef>();
  KernelFn kept[kNumDeviceTypes];
  for (int d = 0; d < kNumDeviceTypes; ++d) kept[d] = def.kernels[d] ? def.kernels[d] : slot->kernels[d];
  *slot = std::move(def);
  for (int d = 0; d < kNumDeviceTypes; ++d) slot->kernels[d] = kept[d];
  resolve_signature(*slot);
  return *slot;
}

void register_kernel(const std::string& op_name, DeviceType device, KernelFn fn) {
  auto& slot = table()[op_name];
  if (!slot) {
    slot = std::make_unique<OpDef>();
    slot->name = op_name;
  }
  slot->kernels[static_cast<int>(device)] = fn;
}

const OpDef* find_op(const std::string& name) {
  auto& t = table();
  auto it = t.find(name);
  return it == t.end() ? nullptr : it->second.get();
}

const OpDef& get_op(const std::string& name) {
  const OpDef* op = find_op(name);
  if (!op) throw_error(Code::kNotFound, "Op type not registered '", name, "'");
  return *op;
}

std::vector<const OpDef*> all_ops() {
  std::vector<const OpDef*> v;
  for (auto& kv : table())
    if (!kv.second->inputs.empty() || kv.second->infer) v.push_back(kv.second.get());
  return v;
}

TensorImpl* KernelContext::allocate_output(size_t i, DType dtype, const Shape& shape, bool forward) {
  if (outputs.size() <= i) outputs.resize(i + 1);
  if (forward && may_forward && op.elementwise && dtype != DType::kString) {
    for (const Tensor& in : inputs) {
      bool taken = false;
      for (const Tensor& o : outputs) taken |= o.get() == in.get();
      if (taken || in.use_count() != 1 || in->dtype() != dtype || in->is_symbolic() || !(in->shape() == shape)) continue;
      if (in->buffer() && in->buffer().use_count() != 1) continue;  // a view shares the bytes
      // Lent for now (the kernel still reads the input); after the kernel the executor hands
      // the consumed input's ownership to this output (no reference-count traffic).
      outputs[i] = Tensor(Tensor(), in.get());
      return outputs[i].get();
    }
  }
  if (BufferPool* pool = current_buffer_pool()) {  // inside a plan run: reuse a released buffer
    if (Tensor t = pool->make(dtype, shape)) {
      outputs[i] = std::move(t);
      return outputs[i].get();
    }
  }
  outputs[i] = TensorImpl::empty(dtype, shape);
  return outputs[i].get();
}

void KernelContext::set_output(size_t i, Tensor t) {
  if (outputs.size() <= i) outputs.resize(i + 1);
  outputs[i] = std::move(t);
}

void InferContext::set_output(size_t i, DType dtype, Shape shape) {
  if (out_dtypes.size() <= i) {
    out_dtypes.resize(i + 1, DType::kInvalid);
    out_shapes.resize(i + 1);
  }
  out_dtypes[i] = dtype;
  out_shapes[i] = std::move(shape);
}

const char* tf_type_string(DType t) {
  switch (t) {
    case DType::kFloat32: return "float";
    case DType::kFloat64: return "double";
    case DType::kFloat16: return "half";
    default: return dtype_name(t);
  }
}

std::string op_suffix(const OpDef& op) { return str_cat(" [Op:", op.name, "]"); }

InferContext infer_for_kernel(const KernelContext& c) {
  InferContext ic{c.op, {}, {}, c.inputs, c.attrs, {}, {}};
  for (const Tensor& x : c.inputs) {
    ic.dtypes.push_back(x->dtype());
    ic.shapes.push_back(x->shape());
  }
  c.op.infer(ic);
  return ic;
}

}  // namespace ef
