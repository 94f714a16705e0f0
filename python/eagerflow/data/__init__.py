"""tf.data namespace: input pipelines (datasets are ops over variant tensors, iterators are
resources; see docs/architecture.md, "tf.data")."""
from eagerflow.data._dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from eagerflow.data._dataset import DatasetV2 as Dataset
from eagerflow.data._iterator import OwnedIterator as Iterator
from eagerflow.data._readers import TextLineDatasetV2 as TextLineDataset
from eagerflow.data import experimental

__all__ = ["AUTOTUNE", "Dataset", "INFINITE_CARDINALITY", "Iterator", "TextLineDataset", "UNKNOWN_CARDINALITY", "experimental"]
