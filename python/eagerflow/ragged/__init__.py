"""tf.ragged namespace."""
from eagerflow.ops.ragged.ragged_dispatch import map_flat_values
from eagerflow.ops.ragged.ragged_factory import constant, range

__all__ = ["constant", "map_flat_values", "range"]
