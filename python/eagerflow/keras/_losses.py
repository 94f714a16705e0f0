"""tf.keras.losses: MeanSquaredError and the mean_squared_error function (Keras 3 reductions)."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.ops import math_ops, reduction_ops

_REDUCTIONS = ("sum_over_batch_size", None, "mean", "mean_with_sample_weight", "sum", "none")


def _float(x, dtype=None):
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    want = dtypes.as_dtype(dtype) if dtype is not None else (x.dtype if x.dtype.is_floating else dtypes.float32)
    return x if x.dtype == want else math_ops.cast(x, want)


def mean_squared_error(y_true, y_pred):
    """mean(square(y_true - y_pred), axis=-1)."""
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype)
    return reduction_ops.reduce_mean(math_ops.square(y_true - y_pred), axis=-1)


MSE = mse = mean_squared_error


class Loss:
    """Base class: `call(y_true, y_pred)` gives per-sample losses, `__call__` weights and reduces them."""

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of {set(_REDUCTIONS)}. "
                             f"Received: reduction={reduction}")
        self.name = name or type(self).__name__
        self.reduction = reduction
        self.dtype = dtype

    def call(self, y_true, y_pred):
        raise NotImplementedError

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(y_true, y_pred)
        if sample_weight is not None:
            w = _float(sample_weight, losses.dtype)
            losses = losses * w
        if self.reduction in (None, "none"):
            return losses
        total = reduction_ops.reduce_sum(losses)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean_with_sample_weight" and sample_weight is not None:
            w = _float(sample_weight, losses.dtype)
            count = reduction_ops.reduce_sum(w + losses * 0)  # the weights broadcast to the losses' shape
            return total / count
        count = math_ops.cast(reduction_ops.reduce_prod(_shape_tensor(losses)), losses.dtype)
        return total / count

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}


def _shape_tensor(x):
    from eagerflow.ops import array_ops
    return array_ops.shape(x)


class LossFunctionWrapper(Loss):
    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squares of errors: per sample over the last axis, then reduced (default: over the batch)."""

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction=reduction, name=name, dtype=dtype)


Loss.__module__ = MeanSquaredError.__module__ = "keras.losses"
