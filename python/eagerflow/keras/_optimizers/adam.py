"""tf.keras.optimizers.Adam: Keras 3's update with bias correction folded into the step size (and AMSGrad)."""
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.ops import math_ops


class Adam(Optimizer):
    """m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2); w -= m * alpha / (sqrt(v) + epsilon), with
    alpha = lr * sqrt(1 - beta_2^t) / (1 - beta_1^t) and t = iterations + 1."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-07, amsgrad=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor, gradient_accumulation_steps=gradient_accumulation_steps,
                         name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def _slot_groups(self):
        return [(True, [("_momentums", "m"), ("_velocities", "v")], "zeros"),
                (self.amsgrad, [("_velocity_hats", "vhat")], "zeros")]

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = math_ops.cast(learning_rate, dtype)
        gradient = math_ops.cast(gradient, dtype)
        local_step = math_ops.cast(self._iterations + 1, dtype)
        beta_1_power = math_ops.pow(math_ops.cast(self.beta_1, dtype), local_step)
        beta_2_power = math_ops.pow(math_ops.cast(self.beta_2, dtype), local_step)
        m = self._slot(self._momentums, variable)
        v = self._slot(self._velocities, variable)
        alpha = lr * math_ops.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((math_ops.square(gradient) - v) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._slot(self._velocity_hats, variable)
            v_hat.assign(math_ops.maximum(v_hat, v))
            v = v_hat
        variable.assign_sub((m * alpha) / (math_ops.sqrt(v) + self.epsilon))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config


Adam.__module__ = "keras.optimizers"
