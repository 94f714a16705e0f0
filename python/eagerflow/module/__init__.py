"""tf.Module."""
from eagerflow.module.module import Module
