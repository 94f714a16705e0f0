// tf.debugging.enable_check_numerics: a process-wide flag checked after each eager op and each
// graph step; a NaN or Inf in a floating output raises InvalidArgumentError naming the op.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "ops/registry.h"

namespace ef {

struct Node;

extern std::atomic<bool> g_check_numerics;
inline bool check_numerics_enabled() { return g_check_numerics.load(std::memory_order_relaxed); }
void set_check_numerics(bool on);

// Counts of -Inf, +Inf and NaN elements; false when the tensor is not floating or all finite.
struct NumericCounts {
  int64_t neg_inf = 0, pos_inf = 0, nan = 0;
  bool bad() const { return neg_inf + pos_inf + nan > 0; }
};
NumericCounts count_non_finite(const TensorImpl& t);
// TF's "Tensor had ... values" tail (CheckNumerics v1 form when `v2` is false).
std::string non_finite_text(const NumericCounts& c, bool v2);

// How an eager tensor prints (str(tensor) in Python); set by the bindings.
using TensorStrFn = std::string (*)(const Tensor&);
void set_tensor_str_hook(TensorStrFn fn);

// Raise if an output of an eagerly executed op (or of graph node `node`) is not finite.
void check_numerics_eager(const OpDef& op, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs);
void check_numerics_graph(const Node& node, const std::vector<Tensor>& outputs);

}  // namespace ef
