"""RaggedTensor and its ops (tf.ragged); importing this package installs RaggedTensor's indexing and
dense conversion, registers the ragged dispatch (tile in ragged_array_ops) and RaggedTensorToTensor's gradient."""
from eagerflow.ops.ragged import (ragged_array_ops, ragged_conversion, ragged_dispatch, ragged_getitem,  # noqa: F401
                                  ragged_grad)
