"""RaggedTensor and its ops (tf.ragged); importing this package installs RaggedTensor's indexing and
dense conversion and registers the ragged dispatch."""
from eagerflow.ops.ragged import ragged_conversion, ragged_dispatch, ragged_getitem  # noqa: F401
