"""Traces the functions given to map, filter and reduce into graph functions, as tf.data does:
the element's components become placeholders (a tuple element is unpacked into arguments), the
Python function runs once under AutoGraph, and the captured tensors become the op's
other_arguments. The dataset kernels then run the graph without Python."""
import itertools

from eagerflow import _core
from eagerflow.autograph._impl import api as autograph
from eagerflow.framework import nest
from eagerflow.framework.func_graph import FuncGraph
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.data import _structure

_ids = itertools.count()


class TracedFunction:
    """One traced element function: the GraphFunction attr, the outer tensors it captures and
    the structure of what it returns (a nest of TensorSpecs)."""

    def __init__(self, fn, input_specs, name, unpack=True, returns_dataset=False):
        self.graph = FuncGraph("%s_%d" % (name, next(_ids)))
        with self.graph.as_default():
            phs = [self.graph._graph.add_placeholder(s.dtype._type_enum, _structure.dims(s.shape), "args_%d" % i)
                   for i, s in enumerate(_structure.flat_specs(input_specs))]
            element = _structure.from_tensor_list(input_specs, phs)
            args = element if unpack and type(element) is tuple else (element,)
            result = autograph.converted_call(fn, args, None)
            self.dataset_spec = None
            if returns_dataset:
                if not hasattr(result, "_variant_tensor"):
                    raise TypeError("The `map_func` argument must return a `Dataset` object. Got %s." % type(result))
                self.dataset_spec = result.element_spec
                result = result._variant_tensor
            self.structured = _normalize_output(result)
            flat = nest.flatten(self.structured)
            # A dataset among the results (map over window elements) is its variant scalar; its
            # spec leaf is the dataset's DatasetSpec, so the consumer sees datasets again.
            leaf_specs = [t._type_spec if _is_dataset(t) else None for t in flat]
            flat = [t._variant_tensor if _is_dataset(t) else t for t in flat]
            outputs = [_core.execute1(_core.get_op("Identity"), [_in_graph(t, self.graph)], None, "Identity")
                       for t in flat]
        captures = self.graph._graph.captures()
        self.captured = [outer for outer, _ in captures]
        self.output_spec = nest.pack_sequence_as(
            self.structured, [s if s is not None else TensorSpec(t.shape, t.dtype) for s, t in zip(leaf_specs, outputs)])
        self.function = _core.GraphFunction(self.graph._graph, phs + [ph for _, ph in captures], outputs,
                                            self.graph.name)

    @property
    def attrs(self):
        return {"Targuments": [t.dtype for t in self.captured]}


def _normalize_output(result):
    """A function's return value as an element: lists become tuples (tf.data's rule), leaves tensors."""
    if isinstance(result, list):
        result = tuple(result)
    if isinstance(result, dict):
        return type(result)((k, _normalize_output(v)) for k, v in result.items())
    if isinstance(result, tuple):
        items = [_normalize_output(v) for v in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    if _is_dataset(result):
        return result
    if result is None:
        raise TypeError("The function given to a tf.data transformation returned None; it must return a "
                        "tensor or a nest of tensors.")
    return _structure._to_tensor(result)


def _is_dataset(x):
    return hasattr(x, "_variant_tensor") and hasattr(x, "element_spec")


def _in_graph(t, graph):
    if t._is_symbolic:
        return t
    return _core.graph_constant(t, "Const")


def unknown_shapes(spec):
    return nest.map_structure(lambda s: TensorSpec(TensorShape(None) if s.shape.rank is None
                                                   else TensorShape([None] * s.shape.rank), s.dtype), spec)
