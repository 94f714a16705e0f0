"""tf.ragged namespace."""
from eagerflow.ops.ragged.ragged_array_ops import stack
from eagerflow.ops.ragged.ragged_dispatch import map_flat_values
from eagerflow.ops.ragged.ragged_factory import boolean_mask, constant, range

__all__ = ["boolean_mask", "constant", "map_flat_values", "range", "stack"]
