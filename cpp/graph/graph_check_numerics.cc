// enable_check_numerics in graph steps: the eager report, naming the node's symbolic inputs.
#include "graph/graph_check_numerics.h"

#include "core/errors.h"

namespace ef {
namespace {

std::string symbolic_str(const Node& producer, int index, DType dt, const Shape& s) {
  return str_cat("Tensor(\"", producer.name, ":", index, "\", shape=", s.to_string(), ", dtype=", dtype_name(dt), ")");
}

}  // namespace

void check_numerics_graph(const Node& node, const std::vector<Tensor>& outputs) {
  if (node.op->name == "CheckNumerics" || node.op->name == "CheckNumericsV2") return;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i]) continue;
    const NumericCounts c = count_non_finite(*outputs[i]);
    if (!c.bad()) continue;
    std::string msg = non_finite_header("graph", node.op->name, i, outputs.size(), *outputs[i]);
    const size_t n = node.inputs.size();
    auto in_str = [&](const Endpoint& e) {
      return symbolic_str(*e.node, e.index, e.node->out_dtypes[e.index], e.node->out_shapes[e.index]);
    };
    if (n == 1) {
      msg += "\n  Input tensor: " + in_str(node.inputs[0]) + "\n";
    } else if (n > 1) {
      msg += str_cat("\n  Input tensors (", n, "):\n");
      for (size_t k = 0; k < n; ++k) msg += str_cat("         ", k, ": ", in_str(node.inputs[k]), "\n");
    }
    msg += str_cat("  Graph name: \"", (node.graph ? node.graph->name : std::string()), "\"\n");
    throw OpError(Code::kInvalidArgument, str_cat(msg, "\n : ", non_finite_text(c, true)));
  }
}

}  // namespace ef
