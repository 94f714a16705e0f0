// graph/'s FunctionRuntime (kernels/cpu/function_runtime.h): function attrs run through their
// plans, loops through scalar programs lowered from their graphs. Registered at static init.
#include "kernels/cpu/function_runtime.h"

#include "graph/function.h"
#include "graph/passes/optimize.h"
#include "graph/scalar_loop_lowering.h"

namespace ef {
namespace {

class PlanRunner final : public FunctionRuntime::Runner {
 public:
  explicit PlanRunner(const Plan& plan) : plan_(plan) {}
  void run(std::vector<Tensor>& args, std::vector<Tensor>& out) override { plan_.run(args, ws_, out); }

 private:
  const Plan& plan_;
  Plan::Workspace ws_;
};

class GraphFunctionRuntime final : public FunctionRuntime {
 public:
  bool stateful(const GraphFunction& f) const override { return f.stateful(); }
  std::vector<Tensor> run(const GraphFunction& f, std::vector<Tensor> args) const override {
    return f.plan().run(std::move(args));
  }
  std::unique_ptr<Runner> runner(const GraphFunction& f) const override { return std::make_unique<PlanRunner>(f.plan()); }
  bool loop_optimization() const override { return optimizer_options().loop_optimization; }
  std::shared_ptr<ScalarLoop> compile_scalar_loop(const GraphFunction& cond, const GraphFunction& body) const override {
    return ef::compile_scalar_loop(cond, body);
  }
};

// Never destroyed: kernels may still run while the process exits.
[[maybe_unused]] const bool registered = (register_function_runtime(new GraphFunctionRuntime), true);

}  // namespace
}  // namespace ef
