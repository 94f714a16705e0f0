// Per-stream state of the stateful random kernels (like TF's kernel-held Philox state).
#pragma once

namespace ef {

// Forgets every stream's position: called by tf.random.set_seed so that a program re-run
// after set_seed produces the same sequence again.
void reset_random_streams();

}  // namespace ef
