"""Element structures: a dataset element is a nest of tensors described by a nest of TensorSpecs
(element_spec); the ops see it flat, as lists of dtypes and shapes."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import nest
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec


def normalize_element(element):
    """The element with every leaf a tensor. Lists are values (converted whole), as in tf.data."""
    if isinstance(element, dict):
        return type(element)((k, normalize_element(v)) for k, v in element.items())
    if isinstance(element, tuple):
        items = [normalize_element(v) for v in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return _to_tensor(element)


def _to_tensor(x):
    if isinstance(x, _core.Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    if isinstance(x, np.ndarray) and x.dtype.kind in "US":
        x = x.astype(object)
    return convert_to_tensor(x)


def spec_of(element):
    return nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), element)


def flat_specs(spec):
    """The TensorSpecs of an element's flat components: a nested dataset (DatasetSpec, as window
    makes) is one variant scalar."""
    return [s if isinstance(s, TensorSpec) else s._component_specs[0] for s in nest.flatten(spec)]


def output_types(spec):
    return [s.dtype for s in flat_specs(spec)]


def dims(shape):
    """A TensorShape as the C++ attr form: dims (None unknown) or None for unknown rank."""
    return None if shape.rank is None else list(shape.as_list())


def output_shapes(spec):
    return [dims(s.shape) for s in flat_specs(spec)]


def element_attrs(spec):
    return {"output_types": output_types(spec), "output_shapes": output_shapes(spec)}


def from_tensor_list(spec, tensors):
    """The element of `spec` over its flat components (a DatasetSpec leaf becomes a dataset)."""
    leaves = nest.flatten(spec)
    tensors = list(tensors)
    if not all(isinstance(s, TensorSpec) for s in leaves):
        tensors = [t if isinstance(s, TensorSpec) else s._from_components([t]) for s, t in zip(leaves, tensors)]
    return nest.pack_sequence_as(spec, tensors)


def relaxed(a, b):
    """The most specific spec compatible with both specs (same structure and dtypes)."""
    return nest.map_structure(
        lambda x, y: TensorSpec(x.shape.most_specific_compatible_shape(y.shape), x.dtype)
        if isinstance(x, TensorSpec) else x, a, b)


def unbatched_shape(shape):
    shape = TensorShape(shape)
    return TensorShape(None) if shape.rank is None else TensorShape(shape.as_list()[1:])
