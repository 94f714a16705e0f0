"""tf.autograph.experimental.set_loop_options."""


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options of the enclosing loop; AutoGraph lifts this call out of the loop body when converting,
    so calling it directly does nothing (as in TF)."""
    return None
