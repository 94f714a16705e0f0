"""CompositeTensor arguments of tf.function: traced by their TypeSpec, fed by their components,
rebuilt from placeholders inside the trace."""
import numpy as np

import eagerflow as tf
from eagerflow.framework.type_spec import CompositeTensor, TypeSpec


class PairSpec(TypeSpec):
    def __init__(self, a, b, tag="pair"):
        self.a, self.b, self.tag = a, b, tag

    value_type = property(lambda self: Pair)
    _component_specs = property(lambda self: [self.a, self.b])

    def _to_components(self, value):
        return [value.a, value.b]

    def _from_components(self, components):
        return Pair(*components, tag=self.tag)

    def _serialize(self):
        return (self.a.shape.as_list(), self.a.dtype.name, self.b.shape.as_list(), self.b.dtype.name, self.tag)


class Pair(CompositeTensor):
    def __init__(self, a, b, tag="pair"):
        self.a, self.b, self.tag = tf.convert_to_tensor(a), tf.convert_to_tensor(b), tag

    @property
    def _type_spec(self):
        return PairSpec(tf.TensorSpec.from_tensor(self.a), tf.TensorSpec.from_tensor(self.b), self.tag)


def test_composite_argument_is_traced_by_spec():
    traces = []

    @tf.function
    def f(p):
        traces.append(p.tag)
        assert isinstance(p, Pair)
        return p.a * 2 + tf.reduce_sum(p.b)

    np.testing.assert_allclose(f(Pair([1.0, 2.0], [3.0])).numpy(), [5.0, 7.0])
    np.testing.assert_allclose(f(Pair([5.0, 6.0], [1.0])).numpy(), [11.0, 13.0])  # same spec: no retrace
    assert traces == ["pair"]
    f(Pair([1.0, 2.0, 3.0], [3.0]))  # another shape: another trace
    f(Pair([1.0, 2.0], [3.0], tag="other"))
    assert traces == ["pair", "pair", "other"]


def test_composite_in_a_structure_and_concrete_function():
    @tf.function
    def g(d):
        return d["p"].a + d["p"].b + d["x"]

    cf = g.get_concrete_function({"p": Pair([1, 2], [3, 4]), "x": tf.constant([10, 20])})
    np.testing.assert_array_equal(cf({"p": Pair([1, 1], [1, 1]), "x": tf.constant([0, 5])}).numpy(), [2, 7])
    assert len(cf.graph.inputs) == 3


def test_spec_equality_and_hash():
    s1, s2 = Pair([1.0], [2.0])._type_spec, Pair([3.0], [4.0])._type_spec
    assert s1 == s2 and hash(s1) == hash(s2)
    assert s1 != Pair([1], [2.0])._type_spec
    assert s1.is_compatible_with(Pair([0.0], [0.0]))
