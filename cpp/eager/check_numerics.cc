// enable_check_numerics: finiteness checks of op outputs and TF's "!!! Detected Infinity or NaN" text.
#include "eager/check_numerics.h"

#include "core/errors.h"

namespace ef {

namespace {

TensorStrFn g_tensor_str = nullptr;

std::string py_shape(const Shape& s) { return s.to_string(); }

}  // namespace

void set_tensor_str_hook(TensorStrFn fn) { g_tensor_str = fn; }

std::string non_finite_header(const std::string& kind, const std::string& op_name, size_t out_index,
                              size_t num_outputs, const TensorImpl& t) {
  return str_cat("\n\n!!! Detected Infinity or NaN in output ", out_index, " of ", kind, " op \"", op_name,
                 "\" (# of outputs: ", num_outputs, ") !!!\n  dtype: <dtype: '", dtype_name(t.dtype()),
                 "'>\n  shape: ", py_shape(t.shape()), "\n");
}

void check_numerics_eager(const OpDef& op, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
  if (op.name == "CheckNumerics" || op.name == "CheckNumericsV2") return;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i]) continue;
    const NumericCounts c = count_non_finite(*outputs[i]);
    if (!c.bad()) continue;
    std::string msg = non_finite_header("eagerly-executing", op.name, i, outputs.size(), *outputs[i]);
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

}  // namespace ef
