// The thread-local execution context: which device ops run on, whether ops are being added to a
// graph, and whether a gradient tape records them.
#pragma once
#include <cstdint>

#include "core/device.h"

namespace ef {
class Graph;
}

namespace ef {

struct Context {
  DeviceSpec device;          // set by tf.device(...)
  Graph* graph = nullptr;     // non-null while building a graph (tf.function / tf.Graph)
  int tape_depth = 0;         // > 0 while a GradientTape records
};

Context& thread_context();

// Global op seed state for tf.random (tf.random.set_seed).
struct SeedState {
  bool has_global = false;
  int64_t global_seed = 0;
  int64_t op_counter = 0;     // distinct default op seeds, as TF does after set_seed
};
SeedState& seed_state();

}  // namespace ef
