"""tf.keras.optimizers.schedules: learning rates as functions of the step."""
from eagerflow.framework import dtypes
from eagerflow.ops import math_ops


class LearningRateSchedule:
    """Base class: `schedule(step)` gives the learning rate at `step`."""

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override `__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps) (floored when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = math_ops.cast(step, dtypes.float32) / float(self.decay_steps)
        if self.staircase:
            p = math_ops.floor(p)
        return math_ops.cast(self.initial_learning_rate, dtypes.float32) * math_ops.pow(
            math_ops.cast(self.decay_rate, dtypes.float32), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}
