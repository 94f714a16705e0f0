// Kernels of the functional ops: run the function attrs' compiled plans (graph/function.h).
#include "core/errors.h"
#include "graph/function.h"
#include "graph/passes/optimize.h"
#include "kernels/cpu/scalar_loop.h"
#include "ops/registry.h"

namespace ef {
namespace {

const GraphFunction& function_attr(const KernelContext& c, const char* name) {
  FunctionPtr f = c.attrs.get<FunctionPtr>(name);
  if (!f) throw_error(Code::kInvalidArgument, "function attr '", name, "' is empty");
  return *f;
}

void set_outputs(KernelContext& c, std::vector<Tensor>&& out) {
  for (size_t i = 0; i < out.size(); ++i) c.set_output(i, std::move(out[i]));
}

void if_kernel(KernelContext& c) {
  const bool pred = tensor_truth(c.input(0));
  const GraphFunction& f = function_attr(c, pred ? "then_branch" : "else_branch");
  std::vector<Tensor> args(c.inputs.begin() + 1, c.inputs.end());
  set_outputs(c, f.plan().run(std::move(args)));
}

void call_kernel(KernelContext& c) { set_outputs(c, function_attr(c, "f").plan().run(c.inputs)); }

// The node's compiled ScalarLoop, or a marker that it does not qualify (decided once per node).
struct ScalarLoopCache {
  std::shared_ptr<ScalarLoop> loop;
};

void while_kernel(KernelContext& c) {
  const GraphFunction& cond_fn = function_attr(c, "cond");
  auto* cache = static_cast<const ScalarLoopCache*>(c.attrs.kernel_cache());
  if (!cache) {
    auto fresh = std::make_shared<ScalarLoopCache>();
    if (optimizer_options().loop_optimization) fresh->loop = ScalarLoop::compile(cond_fn, function_attr(c, "body"));
    cache = static_cast<const ScalarLoopCache*>(c.attrs.set_kernel_cache(fresh));
  }
  if (cache->loop) {
    std::vector<Tensor> out;
    if (cache->loop->run(c.inputs, out)) {
      set_outputs(c, std::move(out));
      return;
    }
  }
  const Plan& cond = cond_fn.plan();
  const Plan& body = function_attr(c, "body").plan();
  // A stateless cond only reads the loop variables during its run: lend them (non-owning
  // pointers, no reference counting). A stateful one might keep one (e.g. assign it).
  const bool lend = !cond_fn.stateful();
  // Scratch kept across iterations: a small loop allocates nothing per iteration but its outputs.
  Plan::Workspace cws, bws;
  std::vector<Tensor> vars(c.inputs.begin(), c.inputs.end()), args(vars.size()), pred, next;
  for (;;) {
    for (size_t k = 0; k < vars.size(); ++k) args[k] = lend ? Tensor(Tensor(), vars[k].get()) : vars[k];
    cond.run(args, cws, pred);
    if (pred.size() != 1) throw_error(Code::kInvalidArgument, "While cond must return one value, got ", pred.size());
    const bool go = tensor_truth(pred[0]);
    pred.clear();
    if (!go) break;
    body.run(vars, bws, next);  // consumes vars
    if (next.size() != c.inputs.size())
      throw_error(Code::kInvalidArgument, "While body returned ", next.size(), " values, expected ", c.inputs.size());
    vars.swap(next);
  }
  set_outputs(c, std::move(vars));
}

}  // namespace

EF_REGISTER_CPU_KERNEL("If", if_kernel);
EF_REGISTER_CPU_KERNEL("StatelessIf", if_kernel);
EF_REGISTER_CPU_KERNEL("While", while_kernel);
EF_REGISTER_CPU_KERNEL("StatelessWhile", while_kernel);
EF_REGISTER_CPU_KERNEL("PartitionedCall", call_kernel);
EF_REGISTER_CPU_KERNEL("StatefulPartitionedCall", call_kernel);

}  // namespace ef
