"""Keras 2 metrics: state in non-trainable variables (`total`, `count`), `update_state` adds a
batch, `result` reads the value, `reset_state` zeroes it; calling a metric does both."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.keras._backend import to_snake_case
from eagerflow.module.module import Module
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops.variables import Variable


def _tensor(x, dtype):
    x = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return x if x.dtype == dtype else math_ops.cast(x, dtype)


def _rank(x):
    return x.shape.rank


def squeeze_or_expand_dimensions(y_pred, y_true=None, sample_weight=None):
    """Keras's alignment of ranks: a trailing dim of 1 is squeezed from the higher-rank value, and
    sample weights one rank short get a trailing dim."""
    if y_true is not None:
        rp, rt = _rank(y_pred), _rank(y_true)
        if rp is not None and rt is not None:
            if rp - rt == 1 and y_pred.shape[-1] == 1:
                y_pred = array_ops.squeeze(y_pred, [-1])
            elif rt - rp == 1 and y_true.shape[-1] == 1:
                y_true = array_ops.squeeze(y_true, [-1])
    if sample_weight is not None:
        rw, rp = _rank(sample_weight), _rank(y_pred)
        if rw is not None and rp is not None:
            if rw - rp == 1:
                sample_weight = array_ops.squeeze(sample_weight, [-1])
            elif rp - rw == 1:
                sample_weight = array_ops.expand_dims(sample_weight, -1)
    return y_pred, y_true, sample_weight


class Metric(Module):
    """Base class of Keras metrics: subclasses create their state with `add_weight` and define
    `update_state(...)` and `result()`."""

    _is_metric = True  # a model holding one leaves its state out of the model's weights

    def __init__(self, name=None, dtype=None, **kwargs):
        super().__init__(name=name or to_snake_case(type(self).__name__))
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self._metric_variables = []

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def trainable(self):
        return True  # a Keras 2 Layer's flag; the metric's own variables are not trainable

    def add_weight(self, name, shape=(), aggregation=None, initializer="zeros", dtype=None):
        dtype = dtypes.as_dtype(dtype or self._dtype)
        v = Variable(creation_ops.zeros(shape, dtype), name=name, trainable=False)
        self._metric_variables.append(v)
        return v

    @property
    def variables(self):
        return list(self._metric_variables)

    weights = non_trainable_weights = non_trainable_variables = variables

    @property
    def trainable_weights(self):
        return []

    trainable_variables = trainable_weights

    def update_state(self, *args, **kwargs):
        raise NotImplementedError("Must be implemented in subclasses.")

    def result(self):
        raise NotImplementedError("Must be implemented in subclasses.")

    def reset_state(self):
        for v in self._metric_variables:
            v.assign(creation_ops.zeros(v.shape, v.dtype))

    reset_states = reset_state

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()


class Reduce(Metric):
    """Sums values (Sum), or averages them weighted by `sample_weight` (Mean)."""

    _mean = True

    def __init__(self, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_weight("total")
        if self._mean:
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = _tensor(values, self._dtype)
        if sample_weight is not None:
            sample_weight = _tensor(sample_weight, self._dtype)
            values, _, sample_weight = squeeze_or_expand_dimensions(values, sample_weight=sample_weight)
            sample_weight = sample_weight + creation_ops.zeros_like(values)  # broadcast to the values' shape
            values = values * sample_weight
        update = self.total.assign_add(reduction_ops.reduce_sum(values))
        if not self._mean:
            return update
        if sample_weight is None:
            n = math_ops.cast(array_ops.size(values), self._dtype)
        else:
            n = reduction_ops.reduce_sum(sample_weight)
        return self.count.assign_add(n)

    def result(self):
        if not self._mean:
            return array_ops.identity(self.total)
        return math_ops.divide_no_nan(self.total, self.count)


class Sum(Reduce):
    """The (weighted) sum of the values given so far."""
    _mean = False


class Mean(Reduce):
    """The (weighted) mean of the values given so far."""
    _mean = True


class MeanMetricWrapper(Mean):
    """The mean of `fn(y_true, y_pred)` over all samples seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _tensor(y_true, self._dtype)
        y_pred = _tensor(y_pred, self._dtype)
        y_pred, y_true, _ = squeeze_or_expand_dimensions(y_pred, y_true)
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(matches, sample_weight=sample_weight)


def accuracy(y_true, y_pred):
    y_true = convert_to_tensor(y_true)
    y_pred = _tensor(y_pred, y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), dtypes.float32)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = convert_to_tensor(y_pred)
    y_true = _tensor(y_true, y_pred.dtype)
    y_pred = math_ops.cast(y_pred > math_ops.cast(threshold, y_pred.dtype), y_pred.dtype)
    return reduction_ops.reduce_mean(math_ops.cast(math_ops.equal(y_true, y_pred), dtypes.float32), axis=-1)


def sparse_categorical_accuracy(y_true, y_pred):
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    reshape = None
    if _rank(y_true) is not None and _rank(y_pred) is not None and _rank(y_true) == _rank(y_pred):
        reshape = array_ops.shape(y_true)
        y_true = array_ops.squeeze(y_true, [-1])
    y_pred = _tensor(reduction_ops.argmax(y_pred, axis=-1), y_true.dtype)
    matches = math_ops.cast(math_ops.equal(y_true, y_pred), dtypes.float32)
    return matches if reshape is None else array_ops.reshape(matches, reshape)


def categorical_accuracy(y_true, y_pred):
    return sparse_categorical_accuracy(reduction_ops.argmax(convert_to_tensor(y_true), axis=-1), y_pred)


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels."""

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often predictions above `threshold` match binary labels."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of predictions matches the argmax of one-hot labels."""

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of predictions matches integer labels."""

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype=dtype)
