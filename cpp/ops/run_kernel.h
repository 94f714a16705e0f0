// Running one op's kernel now: eager execute(), the plan executor's steps, constant folding and
// kernels that run another op (a variable update runs AddV2).
#pragma once
#include <vector>

#include "core/device.h"
#include "core/errors.h"
#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef {

std::vector<Tensor> run_kernel(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs,
                               const Attrs& attrs);
// Same, writing into `outputs` (cleared first; its capacity is reused across calls).
// `may_forward`: the plan executor's steps (KernelContext::may_forward).
void run_kernel_into(const OpDef& op, KernelFn kernel, const std::vector<Tensor>& inputs, const Attrs& attrs,
                     std::vector<Tensor>& outputs, bool may_forward = false);

// The kernel for `op` on `device` (CPU as the soft-placement fallback, like TF).
KernelFn select_kernel(const OpDef& op, DeviceType device);
// Same on the calling thread's device (its tf.device scope).
KernelFn select_kernel(const OpDef& op);

// Reads the calling thread's device. The device scope is eager state (eager/context.h): eager
// registers its reader at static-init time; until then kernels select CPU.
using CurrentDeviceFn = DeviceType (*)();
void set_current_device_fn(CurrentDeviceFn fn);

// Rethrows `e` with " [Op:Name]" appended unless its message names an op already.
[[noreturn]] void rethrow_tagged(const OpDef& op, const OpError& e);

}  // namespace ef
