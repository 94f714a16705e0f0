// Graph IR: nodes (an op, its inputs, attrs, inferred output dtypes/shapes) built by execute()
// in graph mode; symbolic tensors point at (graph, node, output index).
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"
#include "ops/registry.h"

namespace ef {

// A node name given by the user must be a valid root scope name, as TF's name_scope requires
// (^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$): ValueError with TF's message otherwise.
void check_node_name(const std::string& name);

class Graph;
struct Node;

struct Endpoint {
  Node* node = nullptr;
  int index = 0;
  bool operator==(const Endpoint& o) const { return node == o.node && index == o.index; }
};

struct Node {
  int id = 0;
  std::string name;
  const OpDef* op = nullptr;
  std::vector<Endpoint> inputs;
  std::vector<Node*> control_inputs;
  Attrs attrs;
  std::vector<DType> out_dtypes;
  std::vector<Shape> out_shapes;
  std::string device;
  Graph* graph = nullptr;
  // A resource placeholder standing for variables passed as arguments: a handle of their spec,
  // whose variable's dtype and shape inference reads (TF's handle data).
  Tensor handle_value;
  const std::string& type() const { return op->name; }
};

class Graph : public std::enable_shared_from_this<Graph> {
 public:
  static std::shared_ptr<Graph> create() { return std::shared_ptr<Graph>(new Graph()); }

  // Adds a node; `name` is made unique ("add", "add_1", ...). Inference fills output types.
  Node* add_node(const OpDef& op, std::vector<Endpoint> inputs, Attrs attrs, const std::string& name);
  // A Placeholder node of the given dtype/shape (function arguments, captures, TF1 placeholders).
  Node* add_placeholder(DType dtype, const Shape& shape, const std::string& name);
  // A Const node holding `value`; the same eager tensor used twice maps to one node.
  Node* const_node(const Tensor& value, const std::string& name = "Const");
  // A Const converted from a Python value for an op's input: it is named when the next node is
  // added, "<that node>/<its input arg>" when that node reads it (TF converts an op's arguments
  // inside the op's name scope: "Reshape/shape"), else "Const"; or "Const" when a name is read first.
  Node* pending_const(const Tensor& value);
  // Names the pending Consts "Const" (before anything reads node names).
  void settle_pending() {
    if (!pending_.empty()) name_pending(nullptr, {}, {});
  }

  Node* find(const std::string& name) const;
  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  std::string unique_name(const std::string& base);
  // The name unique_name(base) would return now, reserving nothing.
  std::string peek_unique_name(const std::string& base) const;
  Tensor output(Node* node, int index);  // the symbolic tensor for an endpoint

  // Name scopes (tf.name_scope inside graphs): prefixes for new node names.
  void push_name_scope(const std::string& scope) { scopes_.push_back(scope); }
  void pop_name_scope() {
    if (!scopes_.empty()) scopes_.pop_back();
  }
  std::string scoped(const std::string& name) const;

  // A deep copy (nodes, attrs, edges); `map` (optional) receives old node -> new node.
  std::shared_ptr<Graph> clone(std::unordered_map<const Node*, Node*>* map = nullptr) const;

  // Function graphs capture eager tensors as placeholders fed at call time (TF's captures);
  // other graphs (TF1 tf.Graph) embed them as Const nodes.
  bool captures_eager_tensors = false;

  std::string name;  // FuncGraph name (the traced Python function), for messages

  // Automatic control dependencies: stateful ops run in program order and always run.
  bool auto_control_deps = true;
  // tf.control_dependencies: every node added while it is set runs after these, unless one of its
  // inputs was added inside the block (id >= control_dependencies_since) and so already does.
  std::vector<Node*> control_dependencies;
  int control_dependencies_since = 0;
  const std::vector<Node*>& stateful_nodes() const { return stateful_; }

  // Nested function graphs capture symbolic tensors of enclosing graphs as placeholders.
  Graph* outer = nullptr;
  std::vector<std::pair<Tensor, Node*>> captures;

  // Variables passed as function arguments: their handles enter the graph as these placeholders,
  // not as Consts, so one trace serves every variable of the same spec.
  Node* add_resource_argument(const Tensor& handle, const std::string& name);
  std::vector<std::pair<Tensor, Node*>> resource_args;

 private:
  Graph() = default;
  Node* new_node(const OpDef& op, std::vector<Endpoint> inputs, Attrs attrs, const std::string& name, bool pending);
  // Names the pending Consts: those node `op` (named `node_name`, already taken: TF enters the
  // op's scope first) reads from `inputs` "<node_name>/<arg>", the others "Const" in their scope.
  void name_pending(const OpDef* op, const std::vector<Endpoint>& inputs, const std::string& node_name);
  struct Pending {
    Node* node;
    std::string scope;  // the name scope it was converted in
  };
  std::vector<Pending> pending_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::unordered_map<std::string, Node*> by_name_;
  std::unordered_map<std::string, int> name_counts_;  // keyed by lower-case name
  std::unordered_set<std::string> used_;              // lower-case names taken
  std::unordered_map<const TensorImpl*, Node*> const_cache_;
  std::vector<Tensor> const_keep_;  // keeps cached const tensors alive (pointer keys stay valid)
  std::vector<std::string> scopes_;
  std::vector<Node*> stateful_;
  Node* last_stateful_ = nullptr;
};

// Marks (by node id) the nodes that `fetches` and `targets` depend on over data and control
// edges; `feeds` are needed and stop the walk (their inputs are not).
std::vector<char> needed_nodes(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                               const std::vector<Node*>& targets);

// "<tf.Tensor 'add:0' shape=() dtype=int32>": how TF names a graph tensor in messages.
std::string symbolic_repr(const TensorImpl& t);

// The tensor of `g` standing for eager resource `handle` when it is a variable argument of `g` or of
// an enclosing function (captured through the graphs between), else null.
Tensor resource_argument(Graph& g, const Tensor& handle);

// Graph-mode half of execute(): adds a node for `op` to `g` and returns symbolic outputs.
std::vector<Tensor> graph_execute(Graph& g, const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                  const std::string& name);

}  // namespace ef
