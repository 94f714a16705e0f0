"""tf.keras.losses: the regression and cross-entropy losses as classes and functions. Reductions:
Keras 2's ('auto' = 'sum_over_batch_size', 'sum', 'none') and Keras 3's extra names."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.ops import math_ops, reduction_ops

_REDUCTIONS = ("auto", "sum_over_batch_size", None, "mean", "mean_with_sample_weight", "sum", "none")
_EPSILON = 1e-7  # Keras's backend.epsilon(): probabilities are clipped to [eps, 1 - eps]


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


def mean_absolute_error(y_true, y_pred):
    """mean(abs(y_true - y_pred), axis=-1)."""
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype)
    return reduction_ops.reduce_mean(math_ops.abs(y_true - y_pred), axis=-1)


MAE = mae = mean_absolute_error


def _clip_probs(p):
    eps = math_ops.cast(_EPSILON, p.dtype)
    return math_ops.clip_by_value(p, eps, 1.0 - eps)


def _smooth(y_true, label_smoothing, classes):
    if not label_smoothing:
        return y_true
    return y_true * (1.0 - label_smoothing) + label_smoothing / classes


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log(y_pred)) over `axis`; probabilities are normalized and clipped first."""
    from eagerflow.ops import nn_impl
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype)
    y_true = _smooth(y_true, label_smoothing, math_ops.cast(_shape_tensor(y_true)[-1], y_pred.dtype))
    if from_logits:
        return nn_impl.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    y_pred = y_pred / reduction_ops.reduce_sum(y_pred, axis, keepdims=True)
    return -reduction_ops.reduce_sum(y_true * math_ops.log(_clip_probs(y_pred)), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, ignore_class=None):
    """-log(y_pred[y_true]) per sample: integer labels, probabilities (or logits) over `axis`."""
    from eagerflow.ops import array_ops, nn_impl
    y_pred = _float(y_pred)
    y_true = convert_to_tensor(y_true) if not isinstance(y_true, Tensor) else y_true
    if y_true.dtype not in (dtypes.int32, dtypes.int64):  # floats, uint8 MNIST labels: Keras casts to int64
        y_true = math_ops.cast(y_true, dtypes.int64)
    if y_true.shape.rank is not None and y_pred.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank:
        y_true = array_ops.squeeze(y_true, [-1])  # labels of shape [batch, 1]
    logits = y_pred if from_logits else math_ops.log(_clip_probs(y_pred))
    return nn_impl.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=logits)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Mean over `axis` of -(y log p + (1 - y) log(1 - p)), p clipped away from 0 and 1."""
    from eagerflow.ops import nn_impl
    y_pred = _float(y_pred)
    y_true = _float(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        bce = nn_impl.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = _clip_probs(y_pred)
        eps = math_ops.cast(_EPSILON, p.dtype)
        bce = -(y_true * math_ops.log(p + eps) + (1.0 - y_true) * math_ops.log(1.0 - p + eps))
    return reduction_ops.reduce_mean(bce, axis)


class Loss:
    """Base class: `call(y_true, y_pred)` gives per-sample losses, `__call__` weights and reduces them."""

    def __init__(self, name=None, reduction="auto", dtype=None):
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
            sample_weight = _weights_like(_float(sample_weight, losses.dtype), losses)
            losses = losses * sample_weight
        if self.reduction in (None, "none"):
            return losses
        total = reduction_ops.reduce_sum(losses)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean_with_sample_weight" and sample_weight is not None:
            count = reduction_ops.reduce_sum(sample_weight + losses * 0)  # the weights broadcast to the losses' shape
            return total / count
        count = math_ops.cast(reduction_ops.reduce_prod(_shape_tensor(losses)), losses.dtype)
        return total / count

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}


def _weights_like(weights, losses):
    """Sample weights one rank above the per-sample losses lose their trailing axis, one rank below gain one
    (Keras 2's compute_weighted_loss)."""
    from eagerflow.ops import array_ops
    rw, rl = weights.shape.rank, losses.shape.rank
    if rw is not None and rl is not None:
        if rw - rl == 1:
            return array_ops.squeeze(weights, [-1])
        if rl - rw == 1:
            return array_ops.expand_dims(weights, -1)
    return weights


def _shape_tensor(x):
    from eagerflow.ops import array_ops
    return array_ops.shape(x)


class LossFunctionWrapper(Loss):
    def __init__(self, fn, reduction="auto", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)


class MeanSquaredError(LossFunctionWrapper):
    """Mean of squares of errors: per sample over the last axis, then reduced (default: over the batch)."""

    def __init__(self, reduction="auto", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction=reduction, name=name, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    """Mean of absolute errors per sample, then reduced."""

    def __init__(self, reduction="auto", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, reduction=reduction, name=name, dtype=dtype)


class CategoricalCrossentropy(LossFunctionWrapper):
    """Cross entropy of one-hot (or probability) labels and predicted probabilities or logits."""

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="auto",
                 name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, reduction=reduction, name=name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Cross entropy of integer labels and predicted probabilities or logits."""

    def __init__(self, from_logits=False, ignore_class=None, reduction="auto",
                 name="sparse_categorical_crossentropy"):
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name, from_logits=from_logits)


class BinaryCrossentropy(LossFunctionWrapper):
    """Cross entropy of 0/1 labels and predicted probabilities or logits, averaged over the last axis."""

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="auto",
                 name="binary_crossentropy"):
        super().__init__(binary_crossentropy, reduction=reduction, name=name, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


for _cls in (Loss, MeanSquaredError, MeanAbsoluteError, CategoricalCrossentropy, SparseCategoricalCrossentropy,
             BinaryCrossentropy):
    _cls.__module__ = "keras.losses"
