"""tf.data.Dataset: a Python value over a scalar variant tensor (the C++ dataset that the op
made) and its element_spec. Each transformation runs one dataset op on its input's variant tensor;
the subclasses carry TF's class names, which their reprs print."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes, errors, nest
from eagerflow.framework import ops as _ops
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework.type_spec import CompositeTensor, TypeSpec
from eagerflow.ops import _execute
from eagerflow.ops.random_ops import get_seed
from eagerflow.data import _function, _generator, _iterator, _structure

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def _int64(value):
    return _core.convert_to_tensor(value, dtypes.int64._type_enum)


def _spec_key(spec):
    """A hashable description of an element_spec (structure, shapes, dtypes)."""
    def leaf(s):
        if not isinstance(s, TensorSpec):
            return (type(s).__name__, s._serialize())
        shape = s.shape
        dims = None if shape.rank is None else tuple(shape.as_list())
        return (type(s).__name__, dims, s.dtype.name)
    return nest.map_structure(leaf, spec)


class DatasetSpec(TypeSpec):
    """The type of a Dataset argument of tf.function: its element_spec (datasets of one spec share a
    trace); the function receives a dataset over a variant placeholder."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    value_type = property(lambda self: DatasetV2)
    _component_specs = property(lambda self: [TensorSpec([], dtypes.variant)])

    @property
    def element_spec(self):
        return self._element_spec

    def _to_components(self, value):
        return [value._variant_tensor]

    def _from_components(self, components):
        return _VariantDataset(components[0], self._element_spec)

    def _serialize(self):
        return _spec_key(self._element_spec)

    def __repr__(self):
        return "DatasetSpec(%s, TensorShape([]))" % (self._element_spec,)


class DatasetV2(CompositeTensor):
    """A sequence of elements built by ops (tf.data.Dataset)."""

    def __init__(self, variant_tensor, element_spec):
        self._variant_tensor = variant_tensor
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def _type_spec(self):
        return DatasetSpec(self._element_spec)

    def _autograph_iterator(self):
        """The iterator a `for` loop over this dataset in a tf.function runs (AutoGraph's loop)."""
        return _iterator.OwnedIterator(self)

    def __repr__(self):
        return "<%s element_spec=%s>" % (type(self).__name__, self._element_spec)

    # ---- iteration ----

    def __iter__(self):
        # In a tf.function: iterator nodes (next() works; AutoGraph turns a for loop into a While).
        if not (_ops.executing_eagerly() or _ops.inside_function()):
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
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        spec = _generator.output_signature(output_types, output_shapes, output_signature)
        state = _generator.GeneratorState(generator)
        init_fn, next_fn, finalize_fn = _generator.functions(state, spec)
        args = () if args is None else tuple(_structure._to_tensor(a) for a in args)
        return DatasetV2.from_tensors(args).flat_map(
            lambda *a: _GeneratorDataset(a, init_fn, next_fn, finalize_fn, spec))

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

    def flat_map(self, map_func, name=None):
        return _FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None, deterministic=None,
                   name=None):
        cycle_length = AUTOTUNE if cycle_length is None else cycle_length
        block_length = 1 if block_length is None else block_length
        if num_parallel_calls is None:
            return _InterleaveDataset(self, map_func, cycle_length, block_length)
        return _ParallelInterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls, deterministic)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        return _WindowDataset(self, size, size if shift is None else shift, stride, drop_remainder)

    def unbatch(self, name=None):
        return _UnbatchDataset(self)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def take_while(self, predicate, name=None):
        return _TakeWhileDataset(self, predicate)

    def cache(self, filename="", name=None):
        return CacheDataset(self, filename)

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
        """Folds reduce_func(state, element) over the elements (traced once, run per element; in a
        tf.function one While loop over the iterator)."""
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
        if _core.current_graph() is not None:
            flat_state = self._reduce_loop(flat_state, state_spec, traced, attrs)
        else:
            for element in _iterator.OwnedIterator(self):
                flat_state = _execute.execute("PartitionedCall", flat_state + nest.flatten(element) + traced.captured,
                                              attrs)
        return nest.pack_sequence_as(traced.structured, flat_state)

    def _reduce_loop(self, flat_state, state_spec, traced, attrs):
        from eagerflow.ops import control_flow_ops
        it = _iterator.OwnedIterator(self)

        def body(more, *state):
            opt = it.get_next_as_optional()
            has = opt.has_value()

            def step():
                return tuple(_execute.execute("PartitionedCall", list(state) + nest.flatten(opt.get_value())
                                              + traced.captured, attrs))

            new = control_flow_ops.cond(has, step, lambda: tuple(state))
            return (has,) + (tuple(new) if isinstance(new, (list, tuple)) else (new,))

        more = _core.convert_to_tensor(True)
        invariants = [more.shape] + [spec.shape for spec in nest.flatten(state_spec)]
        out = control_flow_ops.while_loop(lambda more, *state: more, body, [more] + list(flat_state),
                                          shape_invariants=invariants)
        return list(out)[1:]


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


class _VariantDataset(DatasetV2):
    """A dataset over a given variant tensor (a tf.function's dataset argument)."""


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


class _GeneratorDataset(DatasetV2):
    """The dataset from_generator flat-maps each of its argument tuples to."""

    def __init__(self, init_args, init_fn, next_fn, finalize_fn, spec):
        id_spec = TensorSpec([], dtypes.int64)
        init = _function.TracedFunction(init_fn, tuple(TensorSpec(a.shape, a.dtype) for a in init_args), "init_func")
        nxt = _function.TracedFunction(next_fn, id_spec, "next_func")
        fin = _function.TracedFunction(finalize_fn, id_spec, "finalize_func")
        if nxt.captured or fin.captured:
            raise ValueError("from_generator's next and finalize functions must not capture tensors")
        inputs = list(init_args) + init.captured
        attrs = dict(_structure.element_attrs(spec), init_func=init.function, next_func=nxt.function,
                     finalize_func=fin.function, Tinit_func_args=[t.dtype for t in inputs])
        super().__init__(_execute.execute1("GeneratorDataset", inputs, attrs), spec)


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


class _PredicateDataset(_UnaryDataset):
    """A dataset op driven by a traced bool predicate (filter, take_while); `_sep` words its errors."""
    _op = _sep = None

    def __init__(self, input_dataset, predicate):
        traced = _function.TracedFunction(predicate, input_dataset.element_spec, "predicate")
        _check_predicate(traced, self._sep)
        attrs = dict(traced.attrs, predicate=traced.function)
        super().__init__(input_dataset, self._op, traced.captured, attrs)


class _FilterDataset(_PredicateDataset):
    _op, _sep = "FilterDataset", (", but ", " ")


def _refuse_datasets(spec, what):
    """Batching works on tensors: an element holding datasets (window's) is refused clearly (TF makes
    a _NestedVariant of them for batch, which eagerflow does not have)."""
    if not all(isinstance(s, TensorSpec) for s in nest.flatten(spec)):
        raise TypeError("`%s` is not supported for datasets of datasets" % what)


class _BatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, batch_size, drop_remainder):
        _refuse_datasets(input_dataset.element_spec, "batch")
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
            ok = all(x == y if not isinstance(x, TensorSpec) else isinstance(y, TensorSpec) and x.dtype == y.dtype
                     for x, y in zip(nest.flatten(a), nest.flatten(b)))
        except (ValueError, TypeError):
            ok = False
        if not ok:
            raise TypeError("Incompatible dataset elements:\n  %s vs.   %s" % (a, b))
        self._dataset = dataset
        spec = _structure.relaxed(a, b)
        super().__init__(input_dataset, "ConcatenateDataset", [dataset._variant_tensor], None, spec)


def _check_predicate(traced, sep):
    out = traced.output_spec
    if not isinstance(out, TensorSpec) or out.dtype != dtypes.bool or out.shape.rank not in (0, None):
        raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor%sits return type is%s%s."
                         % (sep[0], sep[1], out))


class _TakeWhileDataset(_PredicateDataset):
    _op, _sep = "TakeWhileDataset", (" but ", "")


class _FlatMapDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func):
        traced = _function.TracedFunction(map_func, input_dataset.element_spec, "flat_map_func", returns_dataset=True)
        attrs = dict(traced.attrs, f=traced.function)
        super().__init__(input_dataset, "FlatMapDataset", traced.captured, attrs, traced.dataset_spec)


class _InterleaveDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func, cycle_length, block_length):
        traced = _function.TracedFunction(map_func, input_dataset.element_spec, "interleave_func",
                                          returns_dataset=True)
        attrs = dict(traced.attrs, f=traced.function)
        super().__init__(input_dataset, "InterleaveDataset",
                         traced.captured + [_int64(cycle_length), _int64(block_length)], attrs, traced.dataset_spec)


class _ParallelInterleaveDataset(_UnaryDataset):
    """interleave(num_parallel_calls=...): each open cycle element is read by its own thread; the
    order is interleave's."""

    def __init__(self, input_dataset, map_func, cycle_length, block_length, num_parallel_calls, deterministic):
        traced = _function.TracedFunction(map_func, input_dataset.element_spec, "interleave_func",
                                          returns_dataset=True)
        det = "default" if deterministic is None else ("true" if deterministic else "false")
        attrs = dict(traced.attrs, f=traced.function, deterministic=det)
        counts = [cycle_length, block_length, AUTOTUNE, AUTOTUNE, num_parallel_calls]
        super().__init__(input_dataset, "ParallelInterleaveDatasetV4", traced.captured + [_int64(c) for c in counts],
                         attrs, traced.dataset_spec)


class _WindowDataset(_UnaryDataset):
    """A dataset of windows: each element is the input's structure with a dataset at each leaf."""

    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        spec = nest.map_structure(lambda s: DatasetSpec(s), input_dataset.element_spec)
        drop = _core.convert_to_tensor(drop_remainder, dtypes.bool._type_enum)
        super().__init__(input_dataset, "WindowDataset", [_int64(size), _int64(shift), _int64(stride), drop],
                         None, spec)


class _UnbatchDataset(_UnaryDataset):
    def __init__(self, input_dataset):
        if not all(isinstance(s, TensorSpec) for s in nest.flatten(input_dataset.element_spec)):
            raise ValueError("Slicing dataset elements is not supported for rank 0.")
        specs = nest.flatten(input_dataset.element_spec)
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        spec = nest.map_structure(lambda s: TensorSpec(_structure.unbatched_shape(s.shape), s.dtype),
                                  input_dataset.element_spec)
        super().__init__(input_dataset, "UnbatchDataset", (), None, spec)


class _PaddedBatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values, drop_remainder):
        element = input_dataset.element_spec
        _refuse_datasets(element, "padded_batch")
        flat = nest.flatten(element)
        if padded_shapes is None:
            for s in flat:
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because component %s has unknown rank."
                                     % s)
            shapes = [s.shape for s in flat]
        else:
            shapes = _flatten_up_to(element, padded_shapes)
            shapes = [TensorShape([None if d is not None and d < 0 else d for d in _dims_of(p)])
                      if _dims_of(p) is not None else TensorShape(None) for p in shapes]
            for p, s in zip(shapes, flat):
                if not p.is_compatible_with(s.shape) and p.rank != s.shape.rank:
                    raise ValueError("The padded shape %s is not compatible with the shape %s of the corresponding "
                                     "input component." % (p, s.shape))
        if padding_values is None:
            values = [_core.convert_to_tensor(b"" if s.dtype == dtypes.string else 0, s.dtype._type_enum) for s in flat]
        else:
            values = [_core.convert_to_tensor(v, s.dtype._type_enum)
                      for v, s in zip(_flatten_up_to(element, padding_values), flat)]
        known = int(batch_size) if drop_remainder is True and isinstance(batch_size, (int, np.integer)) else None
        spec = nest.pack_sequence_as(element, [TensorSpec(TensorShape([known] + (p.as_list() if p.rank is not None
                                                                                 else [])) if p.rank is not None
                                                          else TensorShape(None), s.dtype)
                                               for p, s in zip(shapes, flat)])
        drop = _core.convert_to_tensor(drop_remainder, dtypes.bool._type_enum)
        super().__init__(input_dataset, "_PaddedBatchDataset", [_int64(batch_size), drop] + values,
                         {"padded_shapes": [_structure.dims(p) for p in shapes],
                          "Toutput_types": [s.dtype for s in flat]}, spec)


def _dims_of(p):
    if isinstance(p, TensorShape):
        return None if p.rank is None else p.as_list()
    if isinstance(p, _core.Tensor):
        return [int(d) for d in p.numpy().reshape(-1)]
    if p is None:
        return None
    return list(p)


def _flatten_up_to(structure, value):
    """value's parts at structure's leaves (a leaf of structure takes value's subtree whole)."""
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in _flatten_up_to(structure[k], value[k])]
    if isinstance(structure, tuple):
        return [x for s, v in zip(structure, value) for x in _flatten_up_to(s, v)]
    return [value]


class CacheDataset(_UnaryDataset):
    """Dataset.cache() (TF prints this class without an underscore)."""

    def __init__(self, input_dataset, filename):
        super().__init__(input_dataset, "CacheDataset", [_core.convert_to_tensor(filename, dtypes.string._type_enum)])
