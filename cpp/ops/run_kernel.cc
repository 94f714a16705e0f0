// Kernel selection and calls (see run_kernel.h).
#include "ops/run_kernel.h"

#include <new>
#include <string>

namespace ef {
namespace {

// Function-local static: eager may register before this file's static init runs.
CurrentDeviceFn& current_device_fn() {
  static CurrentDeviceFn fn = nullptr;
  return fn;
}

}  // namespace

void set_current_device_fn(CurrentDeviceFn fn) { current_device_fn() = fn; }

KernelFn select_kernel(const OpDef& op, DeviceType device) {
  KernelFn k = op.kernels[static_cast<int>(device)];
  if (!k) k = op.kernels[static_cast<int>(DeviceType::kCPU)];  // soft placement, like TF
  if (!k) throw_error(Code::kUnimplemented, "No kernel registered for op ", op.name, op_suffix(op));
  return k;
}

KernelFn select_kernel(const OpDef& op) {
  const CurrentDeviceFn fn = current_device_fn();
  return select_kernel(op, fn ? fn() : DeviceType::kCPU);
}

void rethrow_tagged(const OpDef& op, const OpError& e) {
  std::string msg = e.what();
  if (msg.find("[Op:") == std::string::npos) msg += op_suffix(op);
  throw OpError(e.code(), msg);
}

std::vector<Tensor> run_kernel(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs,
                               const Attrs& attrs) {
  std::vector<Tensor> outputs;
  run_kernel_into(op, kernel, inputs, attrs, outputs);
  return outputs;
}

void run_kernel_into(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs, const Attrs& attrs,
                     std::vector<Tensor>& outputs, bool may_forward) {
  outputs.clear();
  // The kernel fills `outputs` in place: a caller that reuses the vector keeps its capacity, so
  // the executor's steps allocate no vectors.
  KernelContext kc{op, inputs, attrs, std::move(outputs), may_forward};
  try {
    kernel(kc);
  } catch (const OpError& e) {
    rethrow_tagged(op, e);
  } catch (const std::bad_alloc&) {
    throw_error(Code::kResourceExhausted, "OOM when running ", op.name, op_suffix(op));
  }
  outputs = std::move(kc.outputs);
}

}  // namespace ef
