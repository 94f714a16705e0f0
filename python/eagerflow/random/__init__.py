"""tf.random namespace."""
from eagerflow.ops.random_ops import categorical, normal, set_seed, shuffle, truncated_normal, uniform
from eagerflow.ops.random_ops_util import Algorithm
from eagerflow.ops.stateful_random_ops import (Generator, create_rng_state, get_global_generator,
                                               set_global_generator)
from eagerflow.ops.stateless_random_ops import fold_in, split
from eagerflow.ops.stateless_random_ops import stateless_categorical
from eagerflow.ops.stateless_random_ops import stateless_random_normal as stateless_normal
from eagerflow.ops.stateless_random_ops import stateless_random_uniform as stateless_uniform
from eagerflow.ops.stateless_random_ops import stateless_truncated_normal
from eagerflow.random import experimental

__all__ = ["Algorithm", "Generator", "categorical", "create_rng_state", "experimental", "fold_in",
           "get_global_generator", "normal", "set_global_generator", "set_seed", "shuffle", "split",
           "stateless_categorical", "stateless_normal", "stateless_truncated_normal", "stateless_uniform",
           "truncated_normal", "uniform"]
