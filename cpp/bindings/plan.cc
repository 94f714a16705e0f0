// Plan bindings: compiled plans over a graph's feeds, fetches and targets, and the graph
// optimizer's options and output (graph/passes).
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "bindings/plan_ref.h"
#include "core/errors.h"
#include "graph/executor.h"
#include "graph/graph.h"
#include "graph/passes/optimize.h"

namespace ef {

namespace {

struct PlanEnds {
  std::vector<Node*> feeds, targets;
  std::vector<Endpoint> fetches;
};

// Feeds and fetches must be tensors of `g` (TF's message for a fetch of another graph).
PlanEnds plan_ends(const Graph& g, const std::vector<Tensor>& feeds, const std::vector<Tensor>& fetches,
                   const std::vector<NodeRef>& targets) {
  PlanEnds e;
  for (const Tensor& t : feeds) {
    if (!t->is_symbolic() || t->graph() != &g) throw ValueError("feeds must be tensors of the graph");
    e.feeds.push_back(t->node());
  }
  for (const Tensor& t : fetches) {
    if (!t->is_symbolic() || t->graph() != &g)
      throw ValueError(str_cat("Tensor ", t->is_symbolic() ? symbolic_repr(*t) : "(eager)",
                               " is not an element of this graph."));
    e.fetches.push_back({t->node(), t->output_index()});
  }
  for (const NodeRef& r : targets) e.targets.push_back(r.node);
  return e;
}

}  // namespace

void init_plan(py::module_& m) {
  py::class_<PlanRef>(m, "Plan")
      .def(py::init([](std::shared_ptr<Graph> g, const std::vector<Tensor>& feeds, const std::vector<Tensor>& fetches,
                       const std::vector<NodeRef>& targets) {
        const PlanEnds e = plan_ends(*g, feeds, fetches, targets);
        return PlanRef{g, std::make_shared<Plan>(*g, e.feeds, e.fetches, e.targets)};
      }))
      .def("run", [](const PlanRef& p, const std::vector<Tensor>& feeds) {
        py::gil_scoped_release release;
        return p.plan->run(feeds);
      })
      .def("step_names", [](const PlanRef& p) { return p.plan->step_names(); })
      .def_property_readonly("num_steps", [](const PlanRef& p) { return p.plan->num_steps(); });

  // --- optimizer (graph/passes): options for plans built afterwards, and the optimized graph ---
  m.def("set_optimizer_options", [](const py::dict& d) {
    OptimizerOptions& o = optimizer_options();
    for (auto kv : d) {
      const std::string k = kv.first.cast<std::string>();
#define EF_SET_OPTION(TYPE, NAME, DEFAULT) \
      if (k == #NAME) {                    \
        o.NAME = kv.second.cast<TYPE>();   \
        continue;                          \
      }
      EF_OPTIMIZER_OPTIONS(EF_SET_OPTION)
#undef EF_SET_OPTION
      throw ValueError(str_cat("unknown optimizer option '", k, "'"));
    }
  });
  m.def("get_optimizer_options", [] {
    const OptimizerOptions& o = optimizer_options();
    py::dict d;
#define EF_GET_OPTION(TYPE, NAME, DEFAULT) d[#NAME] = o.NAME;
    EF_OPTIMIZER_OPTIONS(EF_GET_OPTION)
#undef EF_GET_OPTION
    return d;
  });
  // The graph a Plan for these feeds/fetches/targets would run: (graph, feeds, fetches).
  m.def("optimize_graph", [](std::shared_ptr<Graph> g, const std::vector<Tensor>& feeds,
                             const std::vector<Tensor>& fetches, const std::vector<NodeRef>& targets) {
    const PlanEnds e = plan_ends(*g, feeds, fetches, targets);
    OptimizedGraph og = optimize(*g, e.feeds, e.fetches, e.targets, optimizer_options());
    std::vector<Tensor> f, o;
    for (Node* n : og.feeds) f.push_back(og.graph->output(n, 0));
    for (const Endpoint& e : og.fetches) o.push_back(og.graph->output(e.node, e.index));
    return py::make_tuple(og.graph, f, o);
  });
}

}  // namespace ef
