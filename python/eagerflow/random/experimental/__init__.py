"""tf.random.experimental namespace."""
from eagerflow.ops.random_ops_util import Algorithm
from eagerflow.ops.stateful_random_ops import (Generator, create_rng_state, get_global_generator,
                                               set_global_generator)
from eagerflow.ops.stateless_random_ops import fold_in as stateless_fold_in
from eagerflow.ops.stateless_random_ops import split as stateless_split

__all__ = ["Algorithm", "Generator", "create_rng_state", "get_global_generator", "set_global_generator",
           "stateless_fold_in", "stateless_split"]
