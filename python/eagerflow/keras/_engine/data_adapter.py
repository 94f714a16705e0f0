"""Batches for fit/evaluate/predict: NumPy arrays and tensors are sliced in Python (contiguous views, or a
per-batch row gather when shuffling), a tf.data.Dataset or a Python generator is iterated as it is."""
import math
import warnings

import numpy as np

from eagerflow import _core
from eagerflow.framework import nest
from eagerflow.framework.convert import convert_to_tensor


def unpack_x_y_sample_weight(data):
    """(x, y, sample_weight) from a batch: a tuple of 1 to 3 items, or x alone."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                     f"found: {data}")


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def is_dataset(x):
    from eagerflow.data import Dataset
    return isinstance(x, Dataset)


def _is_generator(x):
    """A Python generator or iterator of batches (not an array, tensor, dict or dataset)."""
    return hasattr(x, "__next__") and not hasattr(x, "shape") and not is_dataset(x)


def _to_numpy(a):
    if isinstance(a, np.ndarray):
        return a
    if hasattr(a, "numpy"):
        return np.asarray(a.numpy())
    return np.asarray(a)


def _check_cardinality(x, y, sample_weight):
    sizes = {}
    for label, part in (("x", x), ("y", y), ("sample_weight", sample_weight)):
        if part is not None:
            sizes[label] = [int(a.shape[0]) for a in nest.flatten(part)]
    if len({n for ns in sizes.values() for n in ns}) > 1:
        lines = "".join(f"  {label} sizes: {', '.join(str(n) for n in ns)}\n" for label, ns in sizes.items())
        raise ValueError(f"Data cardinality is ambiguous:\n{lines}Make sure all arrays contain the same number "
                         f"of samples.")


def class_weight_to_sample_weight(y, class_weight):
    """Per-sample weights from a {class: weight} map: classes are integer labels or one-hot argmaxes."""
    if nest.is_nested(y):
        raise ValueError("`class_weight` is only supported for Models with a single output.")
    y = _to_numpy(y)
    classes = np.argmax(y, axis=-1) if y.ndim > 1 and y.shape[-1] > 1 else y.reshape(y.shape[0], -1)[:, 0]
    classes = classes.astype(np.int64)
    table = np.zeros(max(max(class_weight) + 1, int(classes.max()) + 1 if classes.size else 0), np.float32)
    for k, w in class_weight.items():
        table[int(k)] = w
    return table[classes]


def train_validation_split(arrays, validation_split):
    """The last `validation_split` of each array (before shuffling) for validation, as Keras does."""
    flat = [a for a in nest.flatten(arrays) if a is not None]
    if any(is_dataset(a) or not hasattr(a, "shape") for a in flat):
        kinds = [type(a) for a in flat if is_dataset(a) or not hasattr(a, "shape")]
        raise ValueError(f"`validation_split` is only supported for Tensors or NumPy arrays, found following types "
                         f"in the input: {kinds}")
    n = int(flat[0].shape[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))
    if split_at == 0 or split_at == n:
        raise ValueError(f"Training data contains {n} samples, which is not sufficient to split it into a "
                         f"validation and training set as specified by `validation_split={validation_split}`. "
                         f"Either provide more data, or a different value for the `validation_split` argument.")

    def part(sl):
        return nest.map_structure(lambda a: None if a is None else _to_numpy(a)[sl], arrays)

    return part(slice(0, split_at)), part(slice(split_at, n))


class DataHandler:
    """Yields each epoch's batches (`(x, y)`, `(x, y, sample_weight)` or `(x,)`) and knows the step count."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None, shuffle=False,
                 class_weight=None):
        self._steps_per_epoch = steps_per_epoch
        self._stream = None
        self._generator = None
        if is_dataset(x):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input.")
            if sample_weight is not None:
                raise ValueError("`sample_weight` argument is not supported when using dataset as input.")
            self._dataset = x
            n = int(x.cardinality().numpy())
            self.inferred_steps = steps_per_epoch if steps_per_epoch is not None else (n if n >= 0 else None)
            self._class_weight = class_weight
            return
        self._dataset = None
        if _is_generator(x):
            if y is not None or sample_weight is not None:
                raise ValueError("`y` argument is not supported when using python generator as input.")
            self._generator = x
            self._class_weight = class_weight
            self.inferred_steps = steps_per_epoch
            return
        if x is None:
            raise ValueError("Unexpected value for `x`: None. Expected NumPy arrays, tensors or a tf.data.Dataset.")
        x = nest.map_structure(_to_numpy, x)
        y = None if y is None else nest.map_structure(_to_numpy, y)
        sample_weight = None if sample_weight is None else nest.map_structure(_to_numpy, sample_weight)
        _check_cardinality(x, y, sample_weight)
        if class_weight is not None and y is not None:
            cw = class_weight_to_sample_weight(y, class_weight)
            sample_weight = cw if sample_weight is None else sample_weight * cw
        data = pack_x_y_sample_weight(x, y, sample_weight)
        if not isinstance(data, tuple):
            data = (data,)
        self._structure = data
        self._arrays = [np.ascontiguousarray(a) for a in nest.flatten(data)]
        self._size = int(self._arrays[0].shape[0])
        self._batch_size = batch_size or 32
        self._shuffle = shuffle
        batches = int(math.ceil(self._size / self._batch_size))
        self.inferred_steps = steps_per_epoch if steps_per_epoch is not None else batches
        # A flat tuple of arrays (the usual (x, y)) is packed without nest.
        self._flat = all(not isinstance(d, (tuple, list, dict)) for d in data)

    def _array_epoch(self):
        # Shuffled: each batch gathers its rows (one small copy that stays in cache; a whole permuted copy of
        # the arrays per epoch costs more in page faults). Unshuffled: contiguous views.
        bs, n, arrays = self._batch_size, self._size, self._arrays
        convert, flat, structure = _core.from_numpy, self._flat, self._structure
        if self._shuffle == "batch":
            starts = np.random.permutation(np.arange(0, n, bs))
        else:
            starts = range(0, n, bs)
        perm = np.random.permutation(n) if self._shuffle and self._shuffle != "batch" else None
        for start in starts:
            if perm is None:
                tensors = [convert(a[start:start + bs]) for a in arrays]
            else:
                rows = perm[start:start + bs]
                tensors = [convert(a.take(rows, axis=0)) for a in arrays]
            yield tuple(tensors) if flat else nest.pack_sequence_as(structure, tensors)

    def _dataset_epoch(self):
        for data in self._dataset:
            if self._class_weight is not None:
                data = self._apply_class_weight(data)
            yield data

    def _apply_class_weight(self, data):
        x, y, sw = unpack_x_y_sample_weight(data)
        cw = convert_to_tensor(class_weight_to_sample_weight(y, self._class_weight))
        return (x, y, cw if sw is None else sw * cw)

    def _epoch(self):
        if self._generator is not None:
            return self._generator_epoch()
        return self._dataset_epoch() if self._dataset is not None else self._array_epoch()

    def _generator_epoch(self):
        for data in self._generator:  # one pass: a generator is not restarted (Keras 2 warns when it runs dry)
            if self._class_weight is not None:
                data = self._apply_class_weight(data)
            yield data

    def _endless(self):
        """steps_per_epoch set: one stream across epochs (arrays restart and reshuffle at their end)."""
        while True:
            empty = True
            for data in self._epoch():
                empty = False
                yield data
            if self._dataset is not None or self._generator is not None or empty:
                warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or "
                              "generator can generate at least `steps_per_epoch * epochs` batches. You may need "
                              "to use the `.repeat()` function when building your dataset.", stacklevel=2)
                return

    def epoch_iterator(self):
        """An iterator over one epoch's batches."""
        if self._steps_per_epoch is None and self._generator is None:
            return self._epoch()
        if self._steps_per_epoch is None:
            return self._generator_epoch()
        if self._stream is None:
            self._stream = self._endless()
        return _take(self._stream, self._steps_per_epoch)


def _take(iterator, n):
    for _ in range(n):
        try:
            yield next(iterator)
        except StopIteration:
            return
