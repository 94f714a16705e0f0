"""tf.train: object-based checkpoints in TensorFlow's format."""
from eagerflow.train._checkpoint import Checkpoint, CheckpointOptions
from eagerflow.train._checkpoint_management import CheckpointManager, get_checkpoint_state, latest_checkpoint
from eagerflow.train._reader import list_variables, load_checkpoint, load_variable

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointOptions", "get_checkpoint_state", "latest_checkpoint",
           "list_variables", "load_checkpoint", "load_variable"]
