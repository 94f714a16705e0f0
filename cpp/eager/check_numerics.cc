// enable_check_numerics: finiteness checks of op outputs and TF's "!!! Detected Infinity or NaN" text.
#include "eager/check_numerics.h"

#include <cmath>

#include "core/errors.h"
#include "graph/graph.h"

namespace ef {

std::atomic<bool> g_check_numerics{false};

void set_check_numerics(bool on) { g_check_numerics.store(on, std::memory_order_relaxed); }

namespace {

TensorStrFn g_tensor_str = nullptr;

template <typename T>
void count_into(const TensorImpl& t, NumericCounts& c) {
  const T* p = t.data<T>();
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(static_cast<float>(p[i]));
    if (std::isnan(v)) {
      ++c.nan;
    } else if (std::isinf(v)) {
      if (v > 0) ++c.pos_inf; else ++c.neg_inf;
    }
  }
}

template <>
void count_into<double>(const TensorImpl& t, NumericCounts& c) {
  const double* p = t.data<double>();
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = p[i];
    if (std::isnan(v)) {
      ++c.nan;
    } else if (std::isinf(v)) {
      if (v > 0) ++c.pos_inf; else ++c.neg_inf;
    }
  }
}

std::string py_shape(const Shape& s) { return s.to_string(); }

std::string symbolic_str(const Node& producer, int index, DType dt, const Shape& s) {
  return str_cat("Tensor(\"", producer.name, ":", index, "\", shape=", py_shape(s), ", dtype=", dtype_name(dt), ")");
}

std::string header(const std::string& kind, const std::string& op_name, size_t out_index, size_t num_outputs,
                   const TensorImpl& t) {
  return str_cat("\n\n!!! Detected Infinity or NaN in output ", out_index, " of ", kind, " op \"", op_name,
                 "\" (# of outputs: ", num_outputs, ") !!!\n  dtype: <dtype: '", dtype_name(t.dtype()),
                 "'>\n  shape: ", py_shape(t.shape()), "\n");
}

}  // namespace

void set_tensor_str_hook(TensorStrFn fn) { g_tensor_str = fn; }

NumericCounts count_non_finite(const TensorImpl& t) {
  NumericCounts c;
  if (t.is_symbolic()) return c;
  EF_DISPATCH_FLOAT(t.dtype(), return c, count_into<T>(t, c));
  return c;
}

std::string non_finite_text(const NumericCounts& c, bool v2) {
  std::string parts;
  auto add = [&](const char* s) { parts += (parts.empty() ? "" : " and ") + std::string(s); };
  if (v2) {
    if (c.neg_inf) add("-Inf");
    if (c.pos_inf) add("+Inf");
  } else if (c.neg_inf || c.pos_inf) {
    add("Inf");
  }
  if (c.nan) add("NaN");
  return str_cat("Tensor had ", parts, " values");
}

void check_numerics_eager(const OpDef& op, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
  if (op.name == "CheckNumerics" || op.name == "CheckNumericsV2") return;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i]) continue;
    const NumericCounts c = count_non_finite(*outputs[i]);
    if (!c.bad()) continue;
    std::string msg = header("eagerly-executing", op.name, i, outputs.size(), *outputs[i]);
    if (c.neg_inf) msg += str_cat("  # of -Inf elements: ", c.neg_inf, "\n");
    if (c.pos_inf) msg += str_cat("  # of +Inf elements: ", c.pos_inf, "\n");
    if (c.nan) msg += str_cat("  # of +NaN elements: ", c.nan, "\n");
    auto str = [&](const Tensor& t) { return g_tensor_str ? g_tensor_str(t) : std::string("<tensor>"); };
    if (inputs.size() == 1) {
      msg += "\n  Input tensor: " + str(inputs[0]) + "\n";
    } else if (!inputs.empty()) {
      msg += str_cat("\n  Input tensors (", inputs.size(), "):\n");
      for (size_t k = 0; k < inputs.size(); ++k) msg += str_cat("         ", k, ": ", str(inputs[k]), "\n");
    }
    throw OpError(Code::kInvalidArgument, str_cat(msg, "\n : ", non_finite_text(c, true), " [Op:CheckNumericsV2]"));
  }
}

void check_numerics_graph(const Node& node, const std::vector<Tensor>& outputs) {
  if (node.op->name == "CheckNumerics" || node.op->name == "CheckNumericsV2") return;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i]) continue;
    const NumericCounts c = count_non_finite(*outputs[i]);
    if (!c.bad()) continue;
    std::string msg = header("graph", node.op->name, i, outputs.size(), *outputs[i]);
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
