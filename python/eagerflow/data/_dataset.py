"""tf.data.Dataset: a Python value over a scalar variant tensor (the C++ dataset that the op
made) and its element_spec. Each transformation runs one dataset op on its input's variant tensor;
the subclasses carry TF's class names, which their reprs print."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes, errors, nest
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.function.tensor_spec import TensorSpec
from eagerflow.ops import _execute
from eagerflow.ops.random_ops import get_seed
from eagerflow.data import _function, _iterator, _structure

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def _int64(value):
    return _core.convert_to_tensor(value, dtypes.int64._type_enum)


class DatasetV2:
    """A sequence of elements built by ops (tf.data.Dataset)."""

    def __init__(self, variant_tensor, element_spec):
        self._variant_tensor = variant_tensor
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def __repr__(self):
        return "<%s element_spec=%s>" % (type(self).__name__, self._element_spec)

    # ---- iteration ----

    def __iter__(self):
        if _core.current_graph() is not None:
            raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in eager mode or within "
                               "tf.function.")
        return _iterator.OwnedIterator(self)

    def __bool__(self):
        return True

    def __len__(self):
        n = int(self.cardinality())
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    def as_numpy_iterator(self):
        for spec in nest.flatten(self._element_spec):
            if not isinstance(spec, TensorSpec):
                raise TypeError("Dataset.as_numpy_iterator() is not supported for datasets that produce values of "
                                "type %s" % type(spec))
        return _iterator.NumpyIterator(self)

    def cardinality(self):
        return _execute.execute1("DatasetCardinality", [self._variant_tensor])

    # ---- sources ----

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        return _TensorDataset(tensors)

    @staticmethod
    def range(*args, **kwargs):
        return _RangeDataset(*args, **kwargs)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        if datasets is not None and args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        return _ZipDataset(datasets)

    # ---- transformations ----

    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        if num_parallel_calls is None:
            return _MapDataset(self, map_func)
        return _ParallelMapDataset(self, map_func, num_parallel_calls, deterministic)

    def filter(self, predicate, name=None):
        return _FilterDataset(self, predicate)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        return _BatchDataset(self, batch_size, drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        return _RepeatDataset(self, count)

    def take(self, count, name=None):
        return _TakeDataset(self, count)

    def skip(self, count, name=None):
        return _SkipDataset(self, count)

    def prefetch(self, buffer_size, name=None):
        return _PrefetchDataset(self, buffer_size)

    def concatenate(self, dataset, name=None):
        return _ConcatenateDataset(self, dataset)

    def enumerate(self, start=0, name=None):
        max_value = np.iinfo(np.int64).max
        return DatasetV2.zip((DatasetV2.range(start, max_value), self))

    def apply(self, transformation_func):
        dataset = transformation_func(self)
        if not isinstance(dataset, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. Got %s."
                            % type(dataset))
        return dataset

    def reduce(self, initial_state, reduce_func, name=None):
        """Folds reduce_func(state, element) over the elements (traced once, run per element)."""
        state = _structure.normalize_element(initial_state)
        state_spec = _structure.spec_of(state)
        traced = _function.TracedFunction(reduce_func, (state_spec, self._element_spec), "reduce_func")
        _check_reduce_state(state_spec, traced.output_spec)
        if not _same_shapes(state_spec, traced.output_spec):  # the state's shape changes: trace once for any shape
            state_spec = _structure.relaxed(state_spec, traced.output_spec)
            state_spec = _function.unknown_shapes(state_spec) if not _same_shapes(
                state_spec, traced.output_spec) else state_spec
            traced = _function.TracedFunction(reduce_func, (state_spec, self._element_spec), "reduce_func")
            _check_reduce_state(state_spec, traced.output_spec)
        flat_state = nest.flatten(state)
        attrs = {"Tin": [t.dtype for t in flat_state] + _structure.output_types(self._element_spec)
                 + [t.dtype for t in traced.captured],
                 "Tout": _structure.output_types(traced.output_spec), "f": traced.function}
        for element in _iterator.OwnedIterator(self):
            flat_state = _execute.execute("PartitionedCall", flat_state + nest.flatten(element) + traced.captured,
                                          attrs)
        return nest.pack_sequence_as(traced.structured, flat_state)


def _same_shapes(a, b):
    return all(x.shape == y.shape for x, y in zip(nest.flatten(a), nest.flatten(b)))


def _check_reduce_state(state_spec, new_spec):
    n, m = len(nest.flatten(state_spec)), len(nest.flatten(new_spec))
    if n != m:
        raise errors.InvalidArgumentError(
            None, None, "The number of components of the initial state and the reduce function output does not "
            "match. (initial_state=%d, output=%d). [Op:ReduceDataset]" % (n, m))
    types = nest.map_structure(lambda s: s.dtype, state_spec)
    new_types = nest.map_structure(lambda s: s.dtype, new_spec)
    try:
        nest.assert_same_structure(state_spec, new_spec)
    except (ValueError, TypeError):
        raise TypeError("The element structure for the new state must match the initial state. Expected %s but "
                        "got %s." % (types, new_types)) from None
    if nest.flatten(types) != nest.flatten(new_types):
        raise TypeError("The element types for the new state must match the initial state. Expected %s but got %s."
                        % (types, new_types))


class _UnaryDataset(DatasetV2):
    """A transformation of one input dataset, keeping its element_spec unless told otherwise."""

    def __init__(self, input_dataset, op, inputs=(), attrs=None, element_spec=None):
        self._input_dataset = input_dataset
        spec = input_dataset.element_spec if element_spec is None else element_spec
        all_attrs = _structure.element_attrs(spec)
        all_attrs.update(attrs or {})
        variant = _execute.execute1(op, [input_dataset._variant_tensor] + list(inputs), all_attrs)
        super().__init__(variant, spec)


# ---- sources ----

class _TensorSliceDataset(DatasetV2):
    def __init__(self, tensors):
        element = _structure.normalize_element(tensors)
        flat = nest.flatten(element)
        if not flat:
            raise ValueError("Invalid `tensors`. `tensors` should not be empty.")
        batch_dim = None
        for t in flat:
            if t.shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            n = t.shape[0]
            if batch_dim is not None and n != batch_dim:
                raise ValueError("Dimensions %d and %d are not compatible" % (batch_dim, n))
            batch_dim = n
        spec = nest.pack_sequence_as(element, [TensorSpec(TensorShape(t.shape.as_list()[1:]), t.dtype) for t in flat])
        variant = _execute.execute1("TensorSliceDataset", flat, {
            "Toutput_types": [t.dtype for t in flat], "output_shapes": _structure.output_shapes(spec)})
        super().__init__(variant, spec)


class _TensorDataset(DatasetV2):
    def __init__(self, tensors):
        element = _structure.normalize_element(tensors)
        flat = nest.flatten(element)
        spec = _structure.spec_of(element)
        variant = _execute.execute1("TensorDataset", flat, {
            "Toutput_types": [t.dtype for t in flat], "output_shapes": _structure.output_shapes(spec)})
        super().__init__(variant, spec)


class _RangeDataset(DatasetV2):
    def __init__(self, *args, output_type=dtypes.int64, name=None):
        if not 1 <= len(args) <= 3:
            raise ValueError("Invalid `args`. The length of `args` should be between 1 and 3 but was %d."
                             % len(args))
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
        spec = TensorSpec([], dtypes.as_dtype(output_type))
        variant = _execute.execute1("RangeDataset", [_int64(start), _int64(stop), _int64(step)],
                                    _structure.element_attrs(spec))
        super().__init__(variant, spec)


class _ZipDataset(DatasetV2):
    def __init__(self, datasets):
        for ds in nest.flatten(datasets):
            if not isinstance(ds, DatasetV2):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                                "`tf.data.Dataset` objects but encountered object of type %s." % type(ds))
        if isinstance(datasets, list):
            datasets = tuple(datasets)
        self._datasets = datasets
        flat = nest.flatten(datasets)
        spec = nest.pack_sequence_as(datasets, [ds.element_spec for ds in flat])
        variant = _execute.execute1("ZipDataset", [ds._variant_tensor for ds in flat],
                                    dict(_structure.element_attrs(spec), N=len(flat)))
        super().__init__(variant, spec)


# ---- transformations ----

class _MapDataset(_UnaryDataset):
    _op = "MapDataset"

    def __init__(self, input_dataset, map_func, extra_inputs=(), extra_attrs=None):
        traced = _function.TracedFunction(map_func, input_dataset.element_spec, "map_func")
        attrs = dict(traced.attrs, f=traced.function)
        attrs.update(extra_attrs or {})
        super().__init__(input_dataset, self._op, traced.captured + list(extra_inputs), attrs, traced.output_spec)


class _ParallelMapDataset(_MapDataset):
    _op = "ParallelMapDatasetV2"

    def __init__(self, input_dataset, map_func, num_parallel_calls, deterministic):
        det = "default" if deterministic is None else ("true" if deterministic else "false")
        super().__init__(input_dataset, map_func, [_int64(num_parallel_calls)], {"deterministic": det})


class _FilterDataset(_UnaryDataset):
    def __init__(self, input_dataset, predicate):
        traced = _function.TracedFunction(predicate, input_dataset.element_spec, "predicate")
        out = traced.output_spec
        if not isinstance(out, TensorSpec) or out.dtype != dtypes.bool or out.shape.rank not in (0, None):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return "
                             "type is %s." % (out,))
        attrs = dict(traced.attrs, predicate=traced.function)
        super().__init__(input_dataset, "FilterDataset", traced.captured, attrs)


class _BatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, batch_size, drop_remainder):
        size = _int64(batch_size)
        drop = _core.convert_to_tensor(drop_remainder, dtypes.bool._type_enum)
        known = None
        if drop_remainder is True and isinstance(batch_size, (int, np.integer)):
            known = int(batch_size)
        spec = nest.map_structure(
            lambda s: TensorSpec(TensorShape(None) if s.shape.rank is None
                                 else TensorShape([known] + s.shape.as_list()), s.dtype),
            input_dataset.element_spec)
        super().__init__(input_dataset, "BatchDatasetV2", [size, drop], {"parallel_copy": False}, spec)


class _ShuffleDataset(_UnaryDataset):
    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        s1, s2 = get_seed(seed)
        super().__init__(input_dataset, "ShuffleDataset", [_int64(buffer_size), _int64(s1 or 0), _int64(s2 or 0)],
                         {"reshuffle_each_iteration": bool(reshuffle_each_iteration)})


class _RepeatDataset(_UnaryDataset):
    def __init__(self, input_dataset, count):
        super().__init__(input_dataset, "RepeatDataset", [_int64(-1 if count is None else count)])


class _TakeDataset(_UnaryDataset):
    def __init__(self, input_dataset, count):
        super().__init__(input_dataset, "TakeDataset", [_int64(count)])


class _SkipDataset(_UnaryDataset):
    def __init__(self, input_dataset, count):
        super().__init__(input_dataset, "SkipDataset", [_int64(count)])


class _PrefetchDataset(_UnaryDataset):
    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset, "PrefetchDataset", [_int64(-1 if buffer_size is None else buffer_size)])


class _ConcatenateDataset(_UnaryDataset):
    def __init__(self, input_dataset, dataset):
        a, b = input_dataset.element_spec, dataset.element_spec
        try:
            nest.assert_same_structure(a, b)
            ok = all(x.dtype == y.dtype for x, y in zip(nest.flatten(a), nest.flatten(b)))
        except (ValueError, TypeError):
            ok = False
        if not ok:
            raise TypeError("Incompatible dataset elements:\n  %s vs.   %s" % (a, b))
        self._dataset = dataset
        spec = _structure.relaxed(a, b)
        super().__init__(input_dataset, "ConcatenateDataset", [dataset._variant_tensor], None, spec)
