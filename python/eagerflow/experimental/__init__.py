"""tf.experimental namespace (the parts eagerflow has)."""
from eagerflow.data._optional import Optional

__all__ = ["Optional"]
