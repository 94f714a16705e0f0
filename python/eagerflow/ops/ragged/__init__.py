"""RaggedTensor and its ops (tf.ragged); importing this package installs RaggedTensor's indexing and
dense conversion, registers the ragged dispatch and RaggedTensorToTensor's gradient."""
from eagerflow.ops.ragged import ragged_conversion, ragged_dispatch, ragged_getitem, ragged_grad  # noqa: F401
