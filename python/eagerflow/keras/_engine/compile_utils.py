"""What `compile` makes of its loss and metrics arguments (Keras 2's LossesContainer and
MetricsContainer): built on the first batch, when the targets' and outputs' shapes are known."""
from eagerflow.framework import nest
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.keras import _losses as losses_mod, _metrics as metrics_mod
from eagerflow.ops import array_ops, math_ops

_UNKNOWN = ("Unknown {kind}: '{name}'. Please ensure you are using a `keras.utils.custom_object_scope` and that "
            "this object is included in the scope. See "
            "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for details.")

_LOSS_FUNCTIONS = {
    "mean_squared_error": losses_mod.mean_squared_error, "mse": losses_mod.mean_squared_error,
    "MSE": losses_mod.mean_squared_error,
    "mean_absolute_error": losses_mod.mean_absolute_error, "mae": losses_mod.mean_absolute_error,
    "MAE": losses_mod.mean_absolute_error,
    "binary_crossentropy": losses_mod.binary_crossentropy,
    "categorical_crossentropy": losses_mod.categorical_crossentropy,
    "sparse_categorical_crossentropy": losses_mod.sparse_categorical_crossentropy,
}
_LOSS_CLASSES = {c.__name__: c for c in (losses_mod.MeanSquaredError, losses_mod.MeanAbsoluteError,
                                         losses_mod.BinaryCrossentropy, losses_mod.CategoricalCrossentropy,
                                         losses_mod.SparseCategoricalCrossentropy)}


def get_loss(identifier):
    """A Loss or loss function from a name, a function or a Loss (tf.keras.losses.get)."""
    if identifier is None or isinstance(identifier, losses_mod.Loss) or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        if identifier in _LOSS_FUNCTIONS:
            return _LOSS_FUNCTIONS[identifier]
        if identifier in _LOSS_CLASSES:
            return _LOSS_CLASSES[identifier]()
        raise ValueError(_UNKNOWN.format(kind="loss function", name=identifier))
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")


def _metric_functions():
    return {
        "accuracy": metrics_mod.accuracy, "binary_accuracy": metrics_mod.binary_accuracy,
        "categorical_accuracy": metrics_mod.categorical_accuracy,
        "sparse_categorical_accuracy": metrics_mod.sparse_categorical_accuracy,
        **{k: v for k, v in _LOSS_FUNCTIONS.items()},
    }


def get_metric(identifier, y_true, y_pred):
    """A Metric for one compile() entry; 'accuracy'/'acc' and 'crossentropy'/'ce' resolve by the shapes of
    targets and outputs (binary when the output's last dim is 1, sparse when the target has a lower rank or a
    last dim of 1), as Keras 2 does."""
    if isinstance(identifier, metrics_mod.Metric):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, metrics_mod.Metric):
        return identifier()
    if identifier in ("accuracy", "acc", "crossentropy", "ce"):
        t_rank, p_rank = y_true.shape.rank, y_pred.shape.rank
        t_last = y_true.shape[-1] if t_rank else None
        p_last = y_pred.shape[-1] if p_rank else None
        binary = p_last == 1
        sparse = (t_rank is not None and p_rank is not None and t_rank < p_rank) or (
            t_last == 1 and p_last is not None and p_last > 1)
        kind = "binary" if binary else "sparse_categorical" if sparse else "categorical"
        suffix = "accuracy" if identifier in ("accuracy", "acc") else "crossentropy"
        fn = _metric_functions()[f"{kind}_{suffix}"]
        return metrics_mod.MeanMetricWrapper(fn, name=identifier)
    if isinstance(identifier, str):
        fns = _metric_functions()
        if identifier not in fns:
            # Keras 2 wraps the unknown name itself and fails when the first batch calls it.
            raise TypeError("'str' object is not callable")
        return metrics_mod.MeanMetricWrapper(fns[identifier], name=identifier)
    if callable(identifier):
        return metrics_mod.MeanMetricWrapper(identifier, name=getattr(identifier, "__name__", "metric"))
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


def _single(structure, what):
    flat = nest.flatten(structure)
    if len(flat) != 1:
        raise NotImplementedError(f"eagerflow's compile supports one model output; {what} has {len(flat)}.")
    return flat[0]


def _as_tensor(x):
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def match_dtype_and_rank(y_true, y_pred):
    """Targets of rank 1 for outputs of rank 2 get a trailing axis; float (or integer) targets take the
    outputs' dtype (Keras 2 does this before every compiled loss and metric)."""
    if y_true.shape.rank == 1 and y_pred.shape.rank == 2:
        y_true = array_ops.expand_dims(y_true, -1)
    t, p = y_true.dtype, y_pred.dtype
    if t != p and ((t.is_floating and p.is_floating) or (t.is_integer and p.is_integer)):
        y_true = math_ops.cast(y_true, y_pred.dtype)
    return y_true


class LossesContainer:
    """The compiled loss: loss(y_true, y_pred, sample_weight) plus regularization losses, tracked in a
    Mean metric named 'loss' weighted by the batch size."""

    def __init__(self, loss, loss_weights=None):
        self._user_loss = loss
        self._loss_weight = loss_weights if loss_weights is not None and not isinstance(
            loss_weights, (list, tuple, dict)) else None
        self._loss_metric = metrics_mod.Mean(name="loss")
        self._loss = None
        self._built = False

    @property
    def metrics(self):
        return [self._loss_metric] if self._built else []

    def build(self):
        loss = get_loss(_single(self._user_loss, "loss") if isinstance(self._user_loss, (list, tuple, dict))
                        else self._user_loss)
        if loss is not None and not isinstance(loss, losses_mod.Loss):
            loss = losses_mod.LossFunctionWrapper(loss, name=getattr(loss, "__name__", "loss"))
        self._loss = loss
        self._built = True

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        if not self._built:
            self.build()
        y_pred = _single(y_pred, "the output")
        y_true = match_dtype_and_rank(_as_tensor(_single(y_true, "y")), y_pred)
        total = self._loss(y_true, y_pred, sample_weight=sample_weight)
        if self._loss_weight is not None:
            total = total * math_ops.cast(self._loss_weight, total.dtype)
        if regularization_losses:
            total = math_ops.add_n([total] + [math_ops.cast(r, total.dtype) for r in regularization_losses])
        batch = math_ops.cast(array_ops.shape(y_true)[0], total.dtype)
        self._loss_metric.update_state(total, sample_weight=batch)
        return total

    def reset_state(self):
        self._loss_metric.reset_state()


class MetricsContainer:
    """The compiled metrics (and weighted_metrics), made on the first update from the targets' shape."""

    def __init__(self, metrics=None, weighted_metrics=None):
        self._user_metrics = self._as_list(metrics)
        self._user_weighted = self._as_list(weighted_metrics)
        self._metrics = []
        self._weighted = []
        self._built = False

    @staticmethod
    def _as_list(metrics):
        if metrics is None:
            return []
        if isinstance(metrics, dict):
            raise NotImplementedError("eagerflow's compile supports one model output: give metrics as a list.")
        return list(metrics) if isinstance(metrics, (list, tuple)) else [metrics]

    @property
    def metrics(self):
        return self._metrics + self._weighted if self._built else []

    def build(self, y_true, y_pred):
        self._metrics = [get_metric(m, y_true, y_pred) for m in self._user_metrics]
        self._weighted = [get_metric(m, y_true, y_pred) for m in self._user_weighted]
        for m in self._weighted:
            if m.name in {x.name for x in self._metrics}:
                m._name = "weighted_" + m.name  # Keras 2 tells the two apart by this prefix
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _single(y_pred, "the output")
        y_true = _as_tensor(_single(y_true, "y"))
        if not self._built:
            self.build(y_true, y_pred)
        y_true = match_dtype_and_rank(y_true, y_pred)
        for m in self._metrics:
            m.update_state(y_true, y_pred)
        for m in self._weighted:
            m.update_state(y_true, y_pred, sample_weight=sample_weight)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()
