"""tf.data.experimental namespace (the names TF 1.x-era pipelines still use)."""
from eagerflow.data._dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from eagerflow.data._experimental import cardinality, get_next_as_optional
from eagerflow.data._optional import Optional

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "Optional", "UNKNOWN_CARDINALITY", "cardinality",
           "get_next_as_optional"]
