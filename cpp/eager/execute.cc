// Eager dispatch: pick the kernel for the context's device, run it, tag errors with the op.
#include "eager/execute.h"

#include <new>

#include "core/errors.h"
#include "eager/context.h"

namespace ef {

Context& thread_context() {
  thread_local Context ctx;
  return ctx;
}

SeedState& seed_state() {
  static SeedState s;
  return s;
}

namespace {

KernelFn select_kernel(const OpDef& op) {
  const Context& ctx = thread_context();
  KernelFn k = op.kernels[static_cast<int>(ctx.device.type)];
  if (!k) k = op.kernels[static_cast<int>(DeviceType::kCPU)];  // soft placement, like TF
  if (!k) throw_error(Code::kUnimplemented, "No kernel registered for op ", op.name, op_suffix(op));
  return k;
}

[[noreturn]] void rethrow_tagged(const OpDef& op, const OpError& e) {
  std::string msg = e.what();
  if (msg.find("[Op:") == std::string::npos) msg += op_suffix(op);
  throw OpError(e.code(), msg);
}

}  // namespace

std::vector<Tensor> execute(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  KernelFn kernel = select_kernel(op);
  KernelContext kc{op, inputs, attrs, {}};
  try {
    kernel(kc);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  } catch (const std::bad_alloc&) {
    throw_error(Code::kResourceExhausted, "OOM when running ", op.name, op_suffix(op));
  }
  return std::move(kc.outputs);
}

Tensor execute1(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  std::vector<Tensor> out = execute(op, inputs, attrs);
  if (out.size() != 1) throw_error(Code::kInternal, op.name, " returned ", out.size(), " outputs, expected 1");
  return std::move(out[0]);
}

InferContext infer(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  InferContext ic{op, {}, {}, inputs, attrs, {}, {}};
  for (const Tensor& t : inputs) {
    ic.dtypes.push_back(t->dtype());
    ic.shapes.push_back(t->shape());
  }
  if (!op.infer) throw_error(Code::kUnimplemented, "No shape inference for op ", op.name);
  try {
    op.infer(ic);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  }
  return ic;
}

}  // namespace ef
