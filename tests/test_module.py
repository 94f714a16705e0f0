"""tf.Module: names, name scopes, variables found through attributes, submodules, tf.function methods."""
import pytest

import eagerflow as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.layers = [Dense(2, 3), Dense(3, 1)]
        self.steps = tf.Variable(0, trainable=False, name="steps")

    @tf.function
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_default_name_is_snake_case_class_name():
    assert MLP().name == "mlp"
    assert Dense(1, 1).name == "dense"
    assert tf.Module().name == "module"

    class MyFancyModel(tf.Module):
        pass

    assert MyFancyModel().name == "my_fancy_model"
    assert MLP(name="foo").name == "foo"


def test_invalid_name():
    with pytest.raises(ValueError, match="'a b' is not a valid module name. Module names must be valid Python "
                                         "identifiers"):
        tf.Module(name="a b")


def test_name_scope():
    m = MLP(name="net")
    assert m.name_scope.name == "net/"
    with m.name_scope as scope:
        assert scope == "net/"


def test_variables_and_submodules():
    m = MLP()
    names = [v.name for v in m.variables]
    # own attributes first (layers, steps by name), then submodules in order
    assert names == ["steps:0", "b:0", "w:0", "b:0", "w:0"]
    assert len(m.trainable_variables) == 4
    assert [v.name for v in m.non_trainable_variables] == ["steps:0"]
    assert m.submodules == tuple(m.layers)
    assert isinstance(m.variables, tuple)


def test_nested_containers_and_dedup():
    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            v = tf.Variable(1.0)
            self.a = v
            self.d = {"x": v, "y": [tf.Variable(2.0)], "m": tf.Module(name="inner")}
            self.t = (v,)

    h = Holder()
    assert [float(v.numpy()) for v in h.variables] == [1.0, 2.0]
    assert [s.name for s in h.submodules] == ["inner"]


def test_recursive_submodules():
    class Outer(tf.Module):
        def __init__(self):
            super().__init__()
            self.mid = tf.Module(name="mid")
            self.mid.leaf = tf.Module(name="leaf")
            self.mid.leaf.v = tf.Variable(3.0)

    o = Outer()
    assert [s.name for s in o.submodules] == ["mid", "leaf"]
    assert [float(v.numpy()) for v in o.variables] == [3.0]


def test_subclass_without_super_init():
    class NoInit(tf.Module):
        def __init__(self):
            self.v = tf.Variable(1)

    m = NoInit()
    assert m.name == "no_init"
    assert len(m.variables) == 1


def test_function_call_on_module():
    m = MLP()
    y = m(tf.constant([[1.0, 2.0]]))
    assert y.numpy().tolist() == [[9.0]]
    m.layers[1].b.assign([1.0])
    assert m(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[10.0]]
    m2 = MLP()
    assert m2(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[9.0]]


def test_with_name_scope():
    class Scoped(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x):
            return tf.constant(1.0, name="c") + x

    m = Scoped(name="sc")
    assert m(1.0).numpy() == 2.0

    @tf.function
    def f(x):
        return m(x)

    g = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    assert any(op.name.startswith("sc/") for op in g.get_operations())
