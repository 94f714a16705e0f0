"""tf.keras.optimizers.Adagrad: per-coordinate step sizes from the sum of squared gradients."""
from eagerflow.keras import initializers
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.ops import math_ops


class Adagrad(Optimizer):
    """acc += g^2 (acc starts at initial_accumulator_value); w -= lr g / sqrt(acc + epsilon)."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-07, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name="Adagrad", jit_compile=True, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor, gradient_accumulation_steps=gradient_accumulation_steps,
                         name=name, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def _slot_groups(self):
        return [(True, [("_accumulators", "accumulator")], initializers.Constant(self.initial_accumulator_value))]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = math_ops.cast(learning_rate, dtype)
        gradient = math_ops.cast(gradient, dtype)
        acc = self._slot(self._accumulators, variable)
        acc.assign_add(gradient * gradient)
        variable.assign_sub(lr * gradient / math_ops.sqrt(acc + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value, "epsilon": self.epsilon})
        return config


Adagrad.__module__ = "keras.optimizers"
