"""tf.keras.optimizers.SGD: gradient descent with optional (Nesterov) momentum, Keras 3's update rule."""
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.ops import math_ops


class SGD(Optimizer):
    """m = momentum * m - lr * g; w += m (w += momentum * m - lr * g with nesterov); w -= lr * g without momentum."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None, name=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor, gradient_accumulation_steps=gradient_accumulation_steps,
                         name=name, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def _slot_groups(self):
        return [(self.momentum != 0, [("momentums", "m")], "zeros")]

    def update_step(self, gradient, variable, learning_rate):
        lr = math_ops.cast(learning_rate, variable.dtype)
        gradient = math_ops.cast(gradient, variable.dtype)
        if self.momentum != 0:
            m = self._slot(self.momentums, variable)
            momentum = math_ops.cast(self.momentum, variable.dtype)
            m.assign(m * momentum - gradient * lr)
            if self.nesterov:
                variable.assign_add(m * momentum - gradient * lr)
            else:
                variable.assign_add(m)
        else:
            variable.assign_sub(gradient * lr)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config


SGD.__module__ = "keras.optimizers"
