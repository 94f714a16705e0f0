"""Dataset.from_generator's Python half: the generator runs in Python, called from the
GeneratorDataset kernel through numpy_function ops in its init / next / finalize functions (TF's
design: each iteration gets an id, the id's Python iterator lives in a GeneratorState)."""
import threading

import numpy as np

from eagerflow.framework import dtypes, nest
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.ops.script_ops import numpy_function


def output_signature(output_types, output_shapes, signature):
    """The element_spec from output_signature, or from output_types (and output_shapes)."""
    if signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the `output_signature` "
                            "argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the `output_signature` "
                            "argument.")
        for spec in nest.flatten(signature):
            if not isinstance(spec, TensorSpec):
                raise TypeError("`output_signature` must contain objects that are subclass of `tf.TypeSpec` but "
                                "found %s which is not." % type(spec))
        return signature
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the `output_signature` argument "
                        "or the `output_types` argument.")
    types = nest.map_structure(dtypes.as_dtype, output_types)
    flat_types = nest.flatten(types)
    if output_shapes is None:
        shapes = [TensorShape(None)] * len(flat_types)
    elif not nest.is_nested(types):
        shapes = [TensorShape(output_shapes)]
    else:
        shapes = [TensorShape(s) for s in _up_to(types, output_shapes)]
    return nest.pack_sequence_as(types, [TensorSpec(s, t) for s, t in zip(shapes, flat_types)])


def _up_to(structure, value):
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in _up_to(structure[k], value[k])]
    if isinstance(structure, (tuple, list)):
        return [x for s, v in zip(structure, value) for x in _up_to(s, v)]
    return [value]


class GeneratorState:
    """The Python iterators of one from_generator dataset, by iteration id."""

    def __init__(self, generator):
        self._generator = generator
        self._lock = threading.Lock()
        self._next_id = 0
        self._args = {}
        self._iterators = {}

    def get_next_id(self, *args):
        with self._lock:
            i = self._next_id
            self._next_id += 1
            self._args[i] = args
        return np.int64(i)

    def get_iterator(self, i):
        with self._lock:
            it = self._iterators.get(i)
            if it is not None:
                return it
            args = self._args.pop(i, ())
        it = iter(self._generator(*args))
        with self._lock:
            self._iterators[i] = it
        return it

    def iterator_completed(self, i):
        with self._lock:
            self._iterators.pop(int(i), None)
            self._args.pop(int(i), None)
        return np.int64(0)


def functions(state, spec):
    """The init, next and finalize functions GeneratorDataset runs (traced into graphs)."""
    flat_specs = nest.flatten(spec)
    flat_types = [s.dtype for s in flat_specs]

    def generator_py_func(iterator_id):
        values = next(state.get_iterator(int(iterator_id)))  # StopIteration: the end (OutOfRange)
        try:
            flat = _up_to(spec, values) if nest.is_nested(spec) else [values]
            if len(flat) != len(flat_specs):
                raise ValueError("structure")
            tensors = [convert_to_tensor(v, dtype=s.dtype) for v, s in zip(flat, flat_specs)]
        except (TypeError, ValueError, KeyError, IndexError) as e:
            raise TypeError("`generator` yielded an element that did not match the expected structure. The expected "
                            "structure was %s, but the yielded element was %s." % (spec, values)) from e
        for t, s in zip(tensors, flat_specs):
            if not s.shape.is_compatible_with(t.shape):
                raise TypeError("`generator` yielded an element of shape %s where an element of shape %s was "
                                "expected." % (_shape_str(t.shape), _shape_str(s.shape)))
        return [t.numpy() for t in tensors]

    def init_fn(*args):
        return numpy_function(state.get_next_id, list(args), dtypes.int64)

    def next_fn(iterator_id):
        out = numpy_function(generator_py_func, [iterator_id], flat_types)
        return tuple(out) if isinstance(out, list) else (out,)

    def finalize_fn(iterator_id):
        return numpy_function(state.iterator_completed, [iterator_id], dtypes.int64)

    return init_fn, next_fn, finalize_fn


def _shape_str(shape):
    return "<unknown>" if shape.rank is None else str(tuple(shape.as_list()))
