// The backward walk of an eager tape (see backward.h).
#include "autodiff/backward.h"

#include <unordered_set>

#include "autodiff/gradients/registry.h"
#include "core/errors.h"
#include "eager/context.h"
#include "eager/execute.h"

namespace ef {

namespace {

using GradientLists = std::unordered_map<TensorKey, std::vector<Gradient>>;

bool real(DType d) { return d == DType::kFloat32 || d == DType::kFloat64; }

// The C++ gradients take dense float and double tensors: any other floating or complex input, or
// an output gradient that is not such a tensor, goes to the Python function.
bool native_inputs(const TapeEntry& e, const std::vector<Gradient>& out_grads) {
  for (const Gradient& g : out_grads) {
    if (g.other || (g.dense && !real(g.dense->dtype()))) return false;
  }
  for (const Tensor& t : e.inputs) {
    const DType d = t->dtype();
    if ((dtype_is_floating(d) || dtype_is_complex(d)) && !real(d)) return false;
  }
  return true;
}

Gradient sum_gradients(const std::vector<Gradient>& lst, const BackwardCallbacks& callbacks) {
  std::vector<Tensor> dense;
  dense.reserve(lst.size());
  for (const Gradient& g : lst) {
    if (!g.dense) return callbacks.sum(lst);
    dense.push_back(g.dense);
  }
  static const OpDef& add_n = get_op("AddN");
  return Gradient{execute1(add_n, dense, Attrs()), nullptr};
}

// The summed gradient of `key` (empty when it has none); sums once and keeps the sum.
Gradient aggregate(GradientLists& grads, TensorKey key, const BackwardCallbacks& callbacks) {
  auto it = grads.find(key);
  if (it == grads.end() || it->second.empty()) return Gradient();
  std::vector<Gradient>& lst = it->second;
  if (lst.size() > 1) {
    Gradient s = sum_gradients(lst, callbacks);
    lst.assign(1, std::move(s));
  }
  return lst[0];
}

}  // namespace

bool trainable_dtype(DType d) {
  return dtype_is_floating(d) || dtype_is_complex(d) || d == DType::kResource || d == DType::kVariant;
}

std::vector<PrunedEntry> prune(const Tape& tape, const std::vector<TensorKey>& targets,
                               const std::vector<TensorKey>& sources) {
  // A copy: gradient ops a persistent tape records while the walk runs append to its entries.
  const std::vector<std::shared_ptr<TapeEntry>> entries = tape.entries();
  std::unordered_set<TensorKey> reach(sources.begin(), sources.end());
  std::vector<char> forward(entries.size(), 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    for (const Tensor& t : entries[i]->inputs) {
      if (reach.count(tensor_key(*t))) {
        forward[i] = 1;
        break;
      }
    }
    if (forward[i])
      for (const Tensor& t : entries[i]->outputs) reach.insert(tensor_key(*t));
  }
  std::unordered_set<TensorKey> need(targets.begin(), targets.end());
  std::vector<PrunedEntry> out;
  for (size_t i = entries.size(); i-- > 0;) {
    if (!forward[i]) continue;
    const TapeEntry& e = *entries[i];
    bool used = false;
    for (const Tensor& t : e.outputs) {
      if (need.count(tensor_key(*t))) {
        used = true;
        break;
      }
    }
    if (!used) continue;
    PrunedEntry p;
    p.entry = entries[i];
    p.out_keys.reserve(e.outputs.size());
    for (const Tensor& t : e.outputs) p.out_keys.push_back(tensor_key(*t));
    p.in_keys.resize(e.inputs.size(), kNoKey);
    for (size_t j = 0; j < e.inputs.size(); ++j) {
      const TensorKey k = tensor_key(*e.inputs[j]);
      need.insert(k);
      if (!reach.count(k)) {
        p.skip.push_back(static_cast<int>(j));
      } else if (trainable_dtype(e.inputs[j]->dtype())) {
        p.in_keys[j] = k;
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::unordered_map<TensorKey, std::vector<Gradient>> backward(const Tape& tape,
                                                              const std::vector<TensorKey>& targets,
                                                              const std::vector<Gradient>& initial,
                                                              const std::vector<TensorKey>& sources,
                                                              const BackwardCallbacks& callbacks) {
  GradientLists grads;
  for (size_t i = 0; i < targets.size() && i < initial.size(); ++i) {
    if (initial[i]) grads[targets[i]].push_back(initial[i]);
  }
  // The C++ gradients read static shapes and values: eager tensors only (a tape recording in a
  // graph, or gradient() called while a graph is being built, takes the Python functions).
  const bool eager = tape.graph == nullptr && thread_context().graph == nullptr;
  const std::unordered_set<TensorKey> source_keys(sources.begin(), sources.end());
  std::vector<Gradient> out_grads;
  std::vector<Tensor> dense;
  for (const PrunedEntry& p : prune(tape, targets, sources)) {
    const TapeEntry& e = *p.entry;
    out_grads.assign(p.out_keys.size(), Gradient());
    bool any = false;
    for (size_t i = 0; i < p.out_keys.size(); ++i) {
      out_grads[i] = aggregate(grads, p.out_keys[i], callbacks);
      any = any || static_cast<bool>(out_grads[i]);
      // A recorded op's numeric outputs are tensors of its own (tape.cc: make_unique_outputs), and
      // their readers were visited before it: nothing adds to their gradients any more, so the walk
      // lets them go (its peak memory is the gradients still live, as in TF). Resource and variant
      // keys may be shared, and custom gradients may return their inputs: those stay to the end.
      const DType d = e.outputs[i]->dtype();
      if (out_grads[i] && e.op && d != DType::kResource && d != DType::kVariant && !source_keys.count(p.out_keys[i]))
        grads.erase(p.out_keys[i]);
    }
    if (!any) continue;
    const GradientFn fn = eager && e.op && !e.custom ? native_gradient(*e.op) : nullptr;
    std::vector<Gradient> in_grads;
    if (fn && native_inputs(e, out_grads)) {
      dense.clear();
      for (const Gradient& g : out_grads) dense.push_back(g.dense);
      std::vector<Tensor> r = fn(GradientOp{*e.op, e.inputs, e.outputs, e.attrs, p.skip}, dense);
      if (r.size() != e.inputs.size())
        throw_error(Code::kInternal, "the C++ gradient of ", e.op->name, " returned ", r.size(), " gradients for ",
                    e.inputs.size(), " inputs");
      in_grads.reserve(r.size());
      for (Tensor& t : r) in_grads.push_back(Gradient{std::move(t), nullptr});
    } else {
      in_grads = callbacks.call(p, out_grads);
    }
    for (size_t j = 0; j < in_grads.size() && j < p.in_keys.size(); ++j) {
      if (p.in_keys[j] != kNoKey && in_grads[j]) grads[p.in_keys[j]].push_back(std::move(in_grads[j]));
    }
  }
  std::unordered_map<TensorKey, std::vector<Gradient>> result;
  for (TensorKey k : sources) {
    auto it = grads.find(k);
    if (it != grads.end() && !it->second.empty()) result.emplace(k, std::move(it->second));
  }
  return result;
}

}  // namespace ef
