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


def _as_tensor(x):
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def match_dtype_and_rank(y_true, y_pred, sample_weight=None):
    """Targets (and sample weights) of rank 1 for outputs of rank 2 get a trailing axis; float (or integer)
    targets take the outputs' dtype, sample weights always (Keras 2 does this before every compiled loss
    and metric)."""
    if y_true.shape.rank == 1 and y_pred.shape.rank == 2:
        y_true = array_ops.expand_dims(y_true, -1)
    t, p = y_true.dtype, y_pred.dtype
    if t != p and ((t.is_floating and p.is_floating) or (t.is_integer and p.is_integer)):
        y_true = math_ops.cast(y_true, y_pred.dtype)
    if sample_weight is not None:
        sample_weight = _as_tensor(sample_weight)
        if sample_weight.shape.rank == 1 and y_pred.shape.rank == 2:
            sample_weight = array_ops.expand_dims(sample_weight, -1)
        if sample_weight.dtype != y_pred.dtype:
            sample_weight = math_ops.cast(sample_weight, y_pred.dtype)
    return y_true, sample_weight


def pseudo_output_names(outputs):
    """Names of a subclassed model's outputs (Keras 2): output_1, output_2, ... or the keys of a dict."""
    if isinstance(outputs, dict):
        return sorted(outputs)
    if isinstance(outputs, (list, tuple)):
        return [f"output_{i + 1}" for i in range(len(outputs))]
    return ["output_1"]


class _Container:
    """What the losses and the metrics containers share: matching a user structure (one object for every
    output, a list in the outputs' order, or a dict keyed by output name) to the model's flat outputs."""

    def __init__(self, output_names=None):
        self._output_names = output_names

    def _names(self, y_pred):
        if self._output_names is None:
            self._output_names = pseudo_output_names(y_pred)
        return self._output_names

    def _per_output(self, y_pred, struct, broadcast=None):
        """`struct` as a list with one entry per flat output (None where it names none). `broadcast(struct)`
        says whether the user's structure is meant for every output (then each output gets a copy)."""
        flat_pred = nest.flatten(y_pred)
        if broadcast is not None and broadcast(struct):  # decided on the user's structure, before a dict maps
            return [struct] * len(flat_pred) if len(flat_pred) == 1 else [self._copy(struct) for _ in flat_pred]
        if isinstance(struct, dict) and not isinstance(y_pred, dict):
            names = self._names(y_pred)
            unknown = {k: v for k, v in struct.items() if k not in names}
            if unknown:
                raise ValueError(f"Found unexpected losses or metrics that do not correspond to any Model output: "
                                 f"{unknown.keys()}. Valid mode output names: {names}. Received struct is: "
                                 f"{unknown}.")
            struct = [struct.get(n) for n in names]
            if len(struct) == 1:
                struct = struct[0]
        elif isinstance(struct, dict):  # outputs keyed by name: missing keys have nothing
            struct = [struct.get(k) for k in sorted(y_pred)]
        if len(flat_pred) == 1:
            return [struct[0] if isinstance(struct, (list, tuple)) and len(struct) == 1
                    and not self._is_entry_list(struct) else struct]
        if not isinstance(struct, (list, tuple)):
            return [struct] * len(flat_pred)
        if len(struct) != len(flat_pred):
            raise ValueError(f"The two structures don't have the same sequence length. Input structure has length "
                             f"{len(struct)}, while shallow structure has length {len(flat_pred)}.")
        return list(struct)

    def _is_entry_list(self, struct):
        return False

    def _copy(self, obj):
        return obj


class LossesContainer(_Container):
    """The compiled loss: the sum over the outputs of loss(y_true, y_pred, sample_weight) times the
    output's loss weight, plus regularization losses. Its mean is tracked in a Mean metric named 'loss'
    weighted by the batch size, and each output's unweighted loss in '<output>_loss' when there are
    several."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        super().__init__(output_names)
        self._user_loss = loss
        self._user_loss_weights = loss_weights
        self._loss_metric = metrics_mod.Mean(name="loss")
        self._losses = self._loss_weights = self._per_output_metrics = None
        self._built = False

    @property
    def metrics(self):
        if not self._built:
            return []
        return [self._loss_metric] + [m for m in self._per_output_metrics if m is not None]

    def build(self, y_pred):
        self._losses = [_loss_object(l) for l in self._per_output(y_pred, self._user_loss)]
        self._loss_weights = self._per_output(y_pred, self._user_loss_weights)
        names = self._names(y_pred)
        self._per_output_metrics = [None] if len(names) == 1 else [
            None if loss is None else metrics_mod.Mean(name=name + "_loss") for loss, name in zip(self._losses, names)]
        self._built = True

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        if not self._built:
            self.build(y_pred)
        flat_true = self._per_output(y_pred, y_true)
        flat_weights = self._per_output(y_pred, sample_weight)
        loss_values, batch = [], None
        for y_t, y_p, sw, loss, weight, metric in zip(flat_true, nest.flatten(y_pred), flat_weights, self._losses,
                                                       self._loss_weights, self._per_output_metrics):
            if y_t is None or loss is None:  # an output may have no loss
                continue
            y_t, sw = match_dtype_and_rank(_as_tensor(y_t), y_p, sw)
            value = loss(y_t, y_p, sample_weight=sw)
            if batch is None:
                batch = array_ops.shape(y_t)[0]
            if metric is not None:
                metric.update_state(value, sample_weight=batch)
            if weight is not None:
                value = value * math_ops.cast(weight, value.dtype)
            loss_values.append(value)
        if regularization_losses:
            dtype = loss_values[0].dtype if loss_values else regularization_losses[0].dtype
            loss_values.append(math_ops.add_n([math_ops.cast(r, dtype) for r in regularization_losses]))
        if not loss_values:
            return None
        dtype = loss_values[0].dtype
        total = math_ops.add_n([v if v.dtype == dtype else math_ops.cast(v, dtype) for v in loss_values])
        self._loss_metric.update_state(total, sample_weight=batch)
        return total

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


def _loss_object(loss):
    loss = get_loss(loss)
    if loss is not None and not isinstance(loss, losses_mod.Loss):
        loss = losses_mod.LossFunctionWrapper(loss, name=getattr(loss, "__name__", "loss"))
    return loss


def _copy_metric(spec):
    """A fresh metric like `spec` (a Metric given once for several outputs keeps one per output)."""
    if not isinstance(spec, metrics_mod.Metric):
        return spec
    if type(spec) is metrics_mod.MeanMetricWrapper:
        return metrics_mod.MeanMetricWrapper(spec._fn, name=spec.name, dtype=spec.dtype, **spec._fn_kwargs)
    try:
        return type(spec)(name=spec.name, dtype=spec.dtype)
    except TypeError:
        return spec


class MetricsContainer(_Container):
    """The compiled metrics and weighted_metrics of each output, made on the first update from the
    targets' and outputs' shapes. One metric or a flat list applies to every output (a copy each); a list
    of lists or a dict gives each output its own."""

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None):
        super().__init__(output_names)
        self._user_metrics = metrics
        self._user_weighted = weighted_metrics
        self._metrics = self._weighted = None
        self._in_order = []
        self._built = False

    @property
    def metrics(self):
        return list(self._in_order) if self._built else []

    @staticmethod
    def _broadcasts(obj):
        if not nest.is_nested(obj):
            return obj is not None
        return isinstance(obj, (list, tuple)) and not any(nest.is_nested(o) for o in obj)

    def _is_entry_list(self, struct):
        return any(nest.is_nested(o) for o in struct)

    def _copy(self, obj):
        return nest.map_structure(_copy_metric, obj)

    def _objects(self, y_pred, y_true, struct):
        per_output = self._per_output(y_pred, struct, self._broadcasts)
        return [[get_metric(m, y_t, y_p) for m in nest.flatten(entry) if m is not None] if y_t is not None else []
                for entry, y_t, y_p in zip(per_output, y_true, nest.flatten(y_pred))]

    def build(self, y_pred, y_true):
        self._metrics = self._objects(y_pred, y_true, self._user_metrics)
        self._weighted = self._objects(y_pred, y_true, self._user_weighted)
        names = self._names(y_pred)
        multi = len(names) > 1
        seen = set()
        for name, metrics, weighted in zip(names, self._metrics, self._weighted):
            for m in metrics:
                if multi:
                    m._name = f"{name}_{m.name}"
                if m.name in seen:
                    raise ValueError(f"Found two metrics with the same name: {m.name}. All the metrics added to "
                                     f"the model need to have unique names.")
                seen.add(m.name)
            for m in weighted:  # Keras 2 tells a weighted metric from its unweighted twin by this prefix
                if multi:
                    m._name = f"{name}_weighted_{m.name}" if f"{name}_{m.name}" in seen else f"{name}_{m.name}"
                elif m.name in seen:
                    m._name = "weighted_" + m.name
                if m.name in seen:
                    raise ValueError(f"Found two weighted metrics with the same name: {m.name}.All the metrics "
                                     f"added to the model need to have unique names.")
                seen.add(m.name)
            self._in_order += metrics + weighted
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        flat_true = [None if t is None else _as_tensor(t) for t in self._per_output(y_pred, y_true)]
        if not self._built:
            self.build(y_pred, flat_true)
        flat_weights = self._per_output(y_pred, sample_weight)
        for y_t, y_p, sw, metrics, weighted in zip(flat_true, nest.flatten(y_pred), flat_weights, self._metrics,
                                                    self._weighted):
            if y_t is None or not (metrics or weighted):
                continue
            y_t, sw = match_dtype_and_rank(y_t, y_p, sw)
            for m in metrics:
                m.update_state(y_t, y_p)
            for m in weighted:
                m.update_state(y_t, y_p, sample_weight=sw)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()
