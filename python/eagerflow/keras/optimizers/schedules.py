"""tf.keras.optimizers.schedules: learning rates as functions of the step."""
from eagerflow.keras._optimizers.learning_rate_schedule import ExponentialDecay, LearningRateSchedule

__all__ = ["ExponentialDecay", "LearningRateSchedule"]
