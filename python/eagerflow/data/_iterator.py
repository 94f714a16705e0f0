"""Eager iteration over a dataset: an iterator resource (AnonymousIteratorV3 + MakeIterator)
advanced by IteratorGetNext; the pipeline's state lives in C++ with the handle."""
import atexit

from eagerflow import _core
from eagerflow.framework import errors, nest
from eagerflow.ops import _execute
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.data import _optional, _structure

_GET_NEXT = _execute.op_def("IteratorGetNext")
# Pipeline threads (prefetch, parallel map) stop before the interpreter finalizes: a thread
# that asks for the GIL during finalization is ended by Python mid-call.
atexit.register(_core.cancel_data_pipelines)


class OwnedIterator:
    """The iterator `iter(dataset)` returns (TF's OwnedIterator)."""

    def __init__(self, dataset):
        self._element_spec = dataset.element_spec
        self._attrs = _core.Attrs(_structure.element_attrs(self._element_spec))
        self._handle = _execute.execute1("AnonymousIteratorV3", [], self._attrs)
        _execute.execute("MakeIterator", [dataset._variant_tensor, self._handle])
        self._inputs = [self._handle]
        self._single = isinstance(self._element_spec, TensorSpec)

    @property
    def element_spec(self):
        return self._element_spec

    def get_next(self):
        """The next element; OutOfRangeError ("End of sequence") after the last."""
        flat = _core.execute(_GET_NEXT, self._inputs, self._attrs)
        return flat[0] if self._single else _structure.from_tensor_list(self._element_spec, flat)

    def get_next_as_optional(self):
        """The next element as a tf.experimental.Optional, empty at the end."""
        variant = _execute.execute1("IteratorGetNextAsOptional", [self._handle], self._attrs)
        return _optional._OptionalImpl(variant, self._element_spec)

    def _autograph_iterator(self):
        return self

    def __iter__(self):
        if _core.current_graph() is not None:  # a Python loop would never see the end of a symbolic iterator
            raise errors.UnimplementedError(
                None, None, "Looping over a tf.data.Iterator inside a tf.function or graph is not supported yet; "
                "call next(iterator) or iterate eagerly.")
        return self

    def __next__(self):
        try:
            return self.get_next()
        except errors.OutOfRangeError:
            raise StopIteration from None

    next = __next__


class NumpyIterator:
    """as_numpy_iterator(): elements as NumPy values (strings as bytes)."""

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return nest.map_structure(_numpy, next(self._iterator))

    next = __next__


def _numpy(t):
    return t.numpy() if isinstance(t, _core.Tensor) else t
