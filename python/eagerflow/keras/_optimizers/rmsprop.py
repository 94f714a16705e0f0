"""tf.keras.optimizers.RMSprop: Keras 2's update (epsilon inside the square root, optional momentum, centered)."""
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.ops import math_ops


class RMSprop(Optimizer):
    """v = rho v + (1 - rho) g^2 (centered: a = rho a + (1 - rho) g, v - a^2 below);
    step = lr g / sqrt(v + epsilon); w -= step, or m = momentum m + step; w -= m."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-07, centered=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name="RMSprop", jit_compile=True, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor, gradient_accumulation_steps=gradient_accumulation_steps,
                         name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def _slot_groups(self):
        return [(True, [("_velocities", "velocity")], "zeros"),
                (self.momentum > 0, [("_momentums", "momentum")], "zeros"),
                (self.centered, [("_average_gradients", "average_gradient")], "zeros")]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = math_ops.cast(learning_rate, dtype)
        gradient = math_ops.cast(gradient, dtype)
        rho = self.rho
        velocity = self._slot(self._velocities, variable)
        velocity.assign(rho * velocity + (1 - rho) * math_ops.square(gradient))
        if self.centered:
            average_grad = self._slot(self._average_gradients, variable)
            average_grad.assign(rho * average_grad + (1 - rho) * gradient)
            denominator = velocity - math_ops.square(average_grad) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = lr * gradient * math_ops.rsqrt(denominator)
        if self.momentum > 0:
            m = self._slot(self._momentums, variable)
            m.assign(self.momentum * m + increment)
            variable.assign_sub(m)
        else:
            variable.assign_sub(increment)

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config


RMSprop.__module__ = "keras.optimizers"
