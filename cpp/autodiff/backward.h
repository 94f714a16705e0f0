// The eager backward pass of a tape: the walk tf.GradientTape.gradient runs. Entries are visited
// last recorded first; each one's output gradients are summed (AddN, in the order they arrived)
// and handed to its gradient function: the C++ one (gradients/registry.h) when it has one and
// every tensor involved is float or double and dense, else the bindings' callback (the Python
// registry, tf.custom_gradient). The Python walk (eager/backprop.py) is the same loop for tapes
// recording inside a graph.
#pragma once
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "autodiff/tape.h"

namespace ef {

// An entry between the sources and the targets, with what the walk needs of it.
struct PrunedEntry {
  std::shared_ptr<TapeEntry> entry;
  std::vector<TensorKey> out_keys;
  // One per input; kNoKey where the input's gradient is not accumulated (a dtype that carries
  // none, or an input no source reaches).
  std::vector<TensorKey> in_keys;
  std::vector<int> skip;  // the inputs no source reaches (TF's skip_input_indices)
};
constexpr TensorKey kNoKey = 0;

// TF's backprop_util.IsTrainable: the dtypes whose tensors carry gradients.
bool trainable_dtype(DType d);

// The entries on some path from a source to a target, last recorded first (entries are recorded
// in execution order, so that is a reverse topological order).
std::vector<PrunedEntry> prune(const Tape& tape, const std::vector<TensorKey>& targets,
                               const std::vector<TensorKey>& sources);

// A gradient on the walk: a dense tensor, or a value only the bindings know (an IndexedSlices).
struct Gradient {
  Tensor dense;
  std::shared_ptr<void> other;
  explicit operator bool() const { return dense || other; }
};

struct BackwardCallbacks {
  // Runs the gradient function of an entry without a C++ gradient: takes the summed output
  // gradients (empty where none) and returns one gradient per input (empty where none), or an
  // empty list for a non-differentiable op. TF's errors (a wrong count) are raised by it.
  std::function<std::vector<Gradient>(const PrunedEntry&, const std::vector<Gradient>&)> call;
  // The sum of gradients of which at least one is not dense (IndexedSlices concatenate).
  std::function<Gradient(const std::vector<Gradient>&)> sum;
};

// Runs the gradient functions of the entries between the sources and the targets, starting
// from `initial` (one per target, empty where none). Returns the gradients of each source key
// that got any, not yet summed (the caller sums those of the sources it reports).
std::unordered_map<TensorKey, std::vector<Gradient>> backward(const Tape& tape, const std::vector<TensorKey>& targets,
                                                              const std::vector<Gradient>& initial,
                                                              const std::vector<TensorKey>& sources,
                                                              const BackwardCallbacks& callbacks);

}  // namespace ef
