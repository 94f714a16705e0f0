// Graph bindings: graphs, nodes, function graphs and graph-building mode (plans: plan.cc).
#include <tuple>

#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "bindings/convert.h"
#include "bindings/plan_ref.h"
#include "core/errors.h"
#include "eager/context.h"
#include "eager/execute.h"
#include "graph/executor.h"
#include "graph/function.h"
#include "graph/graph.h"
#include "graph/passes/optimize.h"
#include "graph/scalar_loop_lowering.h"
#include "kernels/cpu/elementwise_blocks.h"
#include "ops/resource_ops.h"

namespace ef {

namespace {

NodeRef ref_of(Graph& g, Node* n) { return NodeRef{g.shared_from_this(), n}; }

}  // namespace

void init_graph(py::module_& m) {
  py::class_<Graph, std::shared_ptr<Graph>>(m, "Graph")
      .def(py::init([] { return Graph::create(); }))
      .def_readwrite("name", &Graph::name)
      .def_readwrite("auto_control_deps", &Graph::auto_control_deps)
      .def_readwrite("captures_eager_tensors", &Graph::captures_eager_tensors)
      .def("set_outer", [](Graph& g, std::shared_ptr<Graph> outer) { g.outer = outer.get(); })
      .def("nodes", [](Graph& g) {
        g.settle_pending();
        std::vector<NodeRef> out;
        for (auto& n : g.nodes()) out.push_back(ref_of(g, n.get()));
        return out;
      })
      .def("num_nodes", [](Graph& g) { return g.nodes().size(); })
      .def("find", [](Graph& g, const std::string& name) -> py::object {
        g.settle_pending();
        Node* n = g.find(name);
        return n ? py::cast(ref_of(g, n)) : py::none();
      })
      .def("unique_name", &Graph::unique_name)
      // The name a node `base` would get in the current scope now (nothing is reserved).
      .def("peek_unique_name", [](Graph& g, const std::string& base) { return g.peek_unique_name(g.scoped(base)); })
      .def_property_readonly("id", [](Graph& g) { return reinterpret_cast<uintptr_t>(&g); })
      .def("push_name_scope", &Graph::push_name_scope)
      .def("pop_name_scope", &Graph::pop_name_scope)
      // The current name scope as one string ("outer/inner"; "" at the top level).
      .def_property(
          "name_scope",
          [](Graph& g) {
            std::string s = g.scoped("");
            return s.empty() ? s : s.substr(0, s.size() - 1);
          },
          [](Graph& g, const std::string& scope) {
            while (!g.scoped("").empty()) g.pop_name_scope();
            if (!scope.empty()) g.push_name_scope(scope);
          })
      // The newest node (the Operation of an op call that has no outputs, like NoOp).
      .def("last_node", [](Graph& g) -> py::object {
        if (g.nodes().empty()) return py::none();
        return py::cast(ref_of(g, g.nodes().back().get()));
      })
      .def("add_placeholder", [](Graph& g, int dtype, py::object dims, const std::string& name) {
        Shape s = Shape::unknown_rank();
        if (!dims.is_none()) {
          std::vector<int64_t> d;
          for (py::handle x : dims) d.push_back(x.is_none() ? -1 : x.cast<int64_t>());  // None: unknown dim
          s = Shape(d);
        }
        Node* n = g.add_placeholder(static_cast<DType>(dtype), s, name);
        return g.output(n, 0);
      })
      .def_property("control_dependencies",
          [](const std::shared_ptr<Graph>& g) {
            std::vector<NodeRef> out;
            for (Node* n : g->control_dependencies) out.push_back(NodeRef{g, n});
            return out;
          },
          [](Graph& g, const std::vector<NodeRef>& nodes) {
            std::vector<Node*> deps;
            for (const NodeRef& r : nodes) {
              if (r.node->graph != &g) throw ValueError("control dependency from another graph");
              deps.push_back(r.node);
            }
            g.control_dependencies = std::move(deps);
          })
      .def_readwrite("control_dependencies_since", &Graph::control_dependencies_since)
      .def("add_resource_argument", [](Graph& g, const Tensor& handle, const std::string& name) {
        return g.output(g.add_resource_argument(handle, name), 0);
      })
      .def("captures", [](Graph& g) {
        std::vector<std::pair<Tensor, Tensor>> out;
        for (auto& c : g.captures) out.emplace_back(c.first, g.output(c.second, 0));
        return out;
      })
      .def("stateful_nodes", [](Graph& g) {
        std::vector<NodeRef> out;
        for (Node* n : g.stateful_nodes()) out.push_back(ref_of(g, n));
        return out;
      });

  // A function graph with ordered inputs/outputs: the value of If/While/call function attrs.
  py::class_<GraphFunction, std::shared_ptr<GraphFunction>>(m, "GraphFunction")
      .def(py::init([](std::shared_ptr<Graph> g, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                       const std::string& name) {
        std::vector<Node*> in;
        std::vector<Endpoint> out;
        for (const Tensor& t : inputs) {
          if (!t->is_symbolic() || t->graph() != g.get() || t->node()->op->name != "Placeholder")
            throw ValueError("function inputs must be placeholders of its graph");
          in.push_back(t->node());
        }
        for (const Tensor& t : outputs) {
          if (!t->is_symbolic() || t->graph() != g.get()) throw ValueError("function outputs must be tensors of its graph");
          out.push_back({t->node(), t->output_index()});
        }
        return std::make_shared<GraphFunction>(g, std::move(in), std::move(out), name);
      }))
      .def_property_readonly("name", [](const GraphFunction& f) { return f.name; })
      .def_property_readonly("graph", [](const GraphFunction& f) { return f.graph; })
      .def_property_readonly("stateful", &GraphFunction::stateful)
      .def("inputs", [](const GraphFunction& f) {
        std::vector<Tensor> v;
        for (Node* n : f.inputs) v.push_back(f.graph->output(n, 0));
        return v;
      })
      .def("outputs", [](const GraphFunction& f) {
        std::vector<Tensor> v;
        for (const Endpoint& e : f.outputs) v.push_back(f.graph->output(e.node, e.index));
        return v;
      })
      // Runs the compiled plan (eager tensors in, eager tensors out).
      .def("__call__", [](const GraphFunction& f, const std::vector<Tensor>& args) {
        py::gil_scoped_release release;
        return f.plan().run(args);
      });

  // Whether a While with this cond/body runs in the scalar loop interpreter (for tests).
  m.def("scalar_loop_supported", [](const GraphFunction& cond, const GraphFunction& body) {
    return compile_scalar_loop(cond, body) != nullptr;
  });
  // The interpreter's op table (for tests): (op, arity, input dtype enum, bool-valued).
  m.def("scalar_loop_ops", [] {
    std::vector<std::tuple<std::string, int, int, bool>> out;
    for (int id = 0; id < elementwise_block_count(); ++id) {
      const ElementwiseBlock& e = elementwise_block(id);
      for (const auto& [t, steps] : e.scalar)
        if (steps.value) out.emplace_back(e.op, e.arity, static_cast<int>(t), steps.branch != nullptr);
    }
    return out;
  });

  py::class_<NodeRef>(m, "Node")
      .def_property_readonly("name", [](const NodeRef& r) {
        r.graph->settle_pending();
        return r.node->name;
      })
      .def_property_readonly("type", [](const NodeRef& r) { return r.node->type(); })
      .def_property_readonly("id", [](const NodeRef& r) { return r.node->id; })
      .def_property_readonly("graph", [](const NodeRef& r) { return r.graph; })
      .def_property_readonly("stateful", [](const NodeRef& r) { return r.node->op->stateful; })
      .def_property_readonly("device", [](const NodeRef& r) { return r.node->device; })
      .def_property_readonly("num_outputs", [](const NodeRef& r) { return r.node->out_dtypes.size(); })
      .def("inputs", [](const NodeRef& r) {
        std::vector<Tensor> out;
        for (const Endpoint& e : r.node->inputs) out.push_back(e.node->graph->output(e.node, e.index));
        return out;
      })
      .def("outputs", [](const NodeRef& r) {
        std::vector<Tensor> out;
        for (size_t i = 0; i < r.node->out_dtypes.size(); ++i) out.push_back(r.graph->output(r.node, (int)i));
        return out;
      })
      .def("control_inputs", [](const NodeRef& r) {
        std::vector<NodeRef> out;
        for (Node* c : r.node->control_inputs) out.push_back(NodeRef{r.graph, c});
        return out;
      })
      .def("attrs", [](const NodeRef& r) {
        py::dict d;
        for (auto& kv : r.node->attrs.items()) d[py::str(kv.first)] = attr_to_python(kv.second);
        return d;
      })
      // (AttrKind, value) or None, as TapeEntry.attr: the gradient functions' view of an op.
      .def("attr", [](const NodeRef& r, const std::string& name) -> py::object {
        const AttrValue* v = r.node->attrs.find(name);
        if (!v) return py::none();
        return py::make_tuple(static_cast<int>(attr_kind(*v)), attr_to_python(*v));
      })
      .def_property_readonly("attr_names", [](const NodeRef& r) {
        std::vector<std::string> names;
        for (auto& kv : r.node->attrs.items()) names.push_back(kv.first);
        return names;
      })
      // name -> the AttrValue field each attr fills ("type", "shape", "list.type", ...): attrs() alone
      // cannot tell a dtype from an int or a shape from a list.
      .def("attr_fields", [](const NodeRef& r) {
        py::dict d;
        for (auto& kv : r.node->attrs.items()) d[py::str(kv.first)] = py::str(attr_field(kv.second));
        return d;
      })
      .def("__eq__", [](const NodeRef& a, const NodeRef& b) { return a.node == b.node; })
      .def("__hash__", [](const NodeRef& r) { return reinterpret_cast<uintptr_t>(r.node); });

  // A new variable's resource handle holding `value`; `dims` is the declared shape (None: unknown).
  m.def("new_variable_handle", [](const Tensor& value, py::object dims) {
    auto st = std::make_shared<VariableState>();
    st->value = value;
    st->dtype = value->dtype();
    st->shape = dims.is_none() ? Shape::unknown_rank() : Shape(dims.cast<std::vector<int64_t>>());
    return TensorImpl::resource_handle(st);
  });

  // A TF1 graph variable's handle: no value until its initializer (an AssignVariableOp) runs.
  m.def("new_uninitialized_variable_handle", [](int dtype, py::object dims, const std::string& name) {
    auto st = std::make_shared<VariableState>();
    st->dtype = static_cast<DType>(dtype);
    st->shape = dims.is_none() ? Shape::unknown_rank() : Shape(dims.cast<std::vector<int64_t>>());
    st->name = name;
    return TensorImpl::resource_handle(st);
  });

  m.def("set_variable_name", [](const Tensor& handle, const std::string& name) {
    variable_state(get_op("ReadVariableOp"), handle).name = name;
  });

  // Graph-building mode for this thread: returns the previous graph (or None).
  m.def("set_graph", [](py::object g) -> py::object {
    Context& ctx = thread_context();
    py::object prev = ctx.graph ? py::cast(ctx.graph->shared_from_this()) : py::none();
    ctx.graph = g.is_none() ? nullptr : g.cast<std::shared_ptr<Graph>>().get();
    return prev;
  });
  // tf.constant inside a graph: a Const node (named `name`) in the building graph.
  m.def("graph_constant", [](const Tensor& value, const std::string& name) {
    Graph* g = thread_context().graph;
    if (!g) throw ValueError("graph_constant called outside graph building");
    if (value->is_symbolic()) return value;
    return g->output(g->const_node(value, name.empty() ? "Const" : name), 0);
  });
  // tf.convert_to_tensor inside a graph: the Consts converted so far are named "Const" now, as TF
  // names a value converted outside an op's scope.
  m.def("settle_constants", [] {
    if (Graph* g = thread_context().graph) g->settle_pending();
  });
  // The tensor that stands for eager resource `handle` in the building graph: the placeholder of a
  // variable argument of this or an enclosing function (a tape watches reads of that), else `handle`.
  m.def("resource_argument_of", [](const Tensor& handle) -> Tensor {
    Graph* g = thread_context().graph;
    if (!g || handle->is_symbolic() || handle->dtype() != DType::kResource) return handle;
    Tensor arg = resource_argument(*g, handle);
    return arg ? arg : handle;
  });
  // The eager handle a resource tensor stands for: itself, or for a variable argument's placeholder
  // the handle it was traced with (its variable's dtype and shape are those of every call's); else None.
  m.def("handle_value_of", [](const Tensor& t) -> py::object {
    if (t->dtype() != DType::kResource) return py::none();
    if (!t->is_symbolic()) return py::cast(t);
    const Tensor& v = t->output_index() == 0 ? t->node()->handle_value : Tensor();
    return v ? py::cast(v) : py::none();
  });
  // A placeholder made like resource `like` (a backward function's input) keeps its handle data.
  m.def("share_handle_value", [](const Tensor& placeholder, const Tensor& like) {
    if (!placeholder->is_symbolic() || like->dtype() != DType::kResource) return;
    placeholder->node()->handle_value = like->is_symbolic() ? like->node()->handle_value : like;
  });
  m.def("current_graph", []() -> py::object {
    Context& ctx = thread_context();
    return ctx.graph ? py::cast(ctx.graph->shared_from_this()) : py::none();
  });
}

}  // namespace ef
