"""The guide's tf.function semantics: side effects at trace time, frozen Python values, live
variables, variable creation only on the first call, init_scope, leaked tensors, recursion."""
import pytest

import eagerflow as tf


def test_python_side_effects_only_while_tracing():
    external = []

    @tf.function
    def side_effect(x):
        external.append(x)

    side_effect(1)
    side_effect(1)
    side_effect(1)
    assert len(external) == 1
    side_effect(2)
    assert len(external) == 2


def test_globals_frozen_at_trace_time_but_variables_live():
    box = {"foo": 1}

    @tf.function
    def buggy_add():
        return 1 + box["foo"]

    assert buggy_add().numpy() == 2
    box["foo"] = 100
    assert buggy_add().numpy() == 2  # the trace captured the value 1
    v = tf.Variable(1)

    @tf.function
    def variable_add():
        return 1 + v

    assert variable_add().numpy() == 2
    v.assign(100)
    assert variable_add().numpy() == 101


def test_python_object_attributes_frozen_variables_live():
    class SimpleModel(tf.Module):
        def __init__(self):
            self.bias = 0.
            self.weight = 2.

    class BetterModel:
        def __init__(self):
            self.bias = tf.Variable(0.)
            self.weight = tf.Variable(2.)

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias

    x = tf.constant(10.)
    simple = SimpleModel()
    assert evaluate(simple, x).numpy() == 20.0
    simple.bias += 5.0
    assert evaluate(simple, x).numpy() == 20.0  # same object: same trace, stale bias
    better = BetterModel()
    assert evaluate(better, x).numpy() == 20.0
    better.bias.assign_add(5.0)
    assert evaluate(better, x).numpy() == 25.0


def test_python_iterator_consumed_at_trace_time():
    seen = []

    @tf.function
    def consume(it):
        seen.append(next(it))
        return tf.constant(seen[-1])

    it = iter([1, 2, 3])
    assert [consume(it).numpy() for _ in range(3)] == [1, 1, 1]
    assert seen == [1]


def test_variable_created_every_call_raises_singleton_error():
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v

    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables created on the first "
                                         "call. Make sure the tf.Variable is only created once or created outside "
                                         "tf.function."):
        f(1.0)


def test_count_pattern_creates_once_and_is_traced_twice():
    traces = []

    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            traces.append(1)
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    assert c().numpy() == 1
    assert c().numpy() == 2
    assert len(traces) == 2  # as in TF: the first trace made a variable, so it is traced again
    assert isinstance(c.count, tf.Variable) and c.count.numpy() == 2
    c2 = Count()  # bound per instance: a new object gets its own variable
    assert c2().numpy() == 1
    assert c.count.numpy() == 2


def test_variable_created_inside_trace_is_lifted():
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(tf.zeros([2]) + 3.0))
        return holder[0] * x

    assert f(tf.constant(2.0)).numpy().tolist() == [6.0, 6.0]
    assert not holder[0].value()._is_symbolic
    assert holder[0].numpy().tolist() == [3.0, 3.0]


def test_variable_initial_value_from_input_cannot_be_lifted():
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(x * 2))
        return holder[0].read_value()

    with pytest.raises(ValueError):
        f(tf.constant(2.0))


def test_creating_variables_on_non_first_trace_raises():
    @tf.function
    def f(x, make):
        if make:
            tf.Variable(1.0)
        return x

    f(tf.constant(1.0), False)
    with pytest.raises(ValueError, match="non-first call"):
        f(tf.constant(1.0), True)


def test_init_scope_lifts_side_effects_out_of_the_graph():
    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                with tf.init_scope():
                    self.counter += 1
                    self.v.assign_add(1)
            return self.v

    m = Model()
    assert [m().numpy() for _ in range(3)] == [1, 1, 1]

    class Pitfall(Model):
        @tf.function
        def __call__(self):
            if self.counter == 0:
                self.counter += 1
                self.v.assign_add(1)
            return self.v

    p = Pitfall()
    assert [p().numpy() for _ in range(3)] == [1, 2, 3]


def test_init_scope_executes_eagerly():
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            seen.append(tf.executing_eagerly())
            seen.append(tf.constant(1.0).numpy())
        seen.append(tf.executing_eagerly())
        return x

    f(tf.constant(1.0))
    assert seen == [True, 1.0, False]


def test_leaked_tensor_has_no_numpy_and_is_out_of_scope():
    leaked = []

    @tf.function
    def leaky(a):
        x = a + 1
        leaked.append(x)
        return x

    assert leaky(tf.constant(1)).numpy() == 2
    with pytest.raises(AttributeError, match="numpy"):
        leaked[0].numpy()

    @tf.function
    def captures(b):
        return b + leaked[0]

    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):
        captures(tf.constant(2))


def test_recursion_on_tensor_raises_instead_of_hanging():
    @tf.function
    def recursive_fn(n):
        return recursive_fn(n - 1)

    with pytest.raises(RecursionError):
        recursive_fn(tf.constant(5))

    @tf.function
    def by_tensor(n):
        if n > 0:
            return by_tensor(n - 1)
        return 1

    with pytest.raises(Exception):
        by_tensor(tf.constant(5))


def test_recursion_on_python_values_unrolls():
    calls = []

    @tf.function
    def recursive_fn(n):
        if n > 0:
            calls.append(n)
            return recursive_fn(n - 1)
        return 1

    r = recursive_fn(5)
    assert r.numpy() == 1 and r.dtype == tf.int32
    assert calls == [5, 4, 3, 2, 1]
    recursive_fn(5)
    assert len(calls) == 5  # cached
    recursive_fn(3)
    assert len(calls) == 8  # a new Python value is a new trace


def test_function_on_methods_is_bound_per_instance():
    class Adder:
        def __init__(self, k):
            self.k = k

        @tf.function
        def add(self, x):
            return x + self.k

    a, b = Adder(1), Adder(10)
    assert a.add(tf.constant(1)).numpy() == 2
    assert b.add(tf.constant(1)).numpy() == 11
    assert a.add is a.add
    assert a.add is not b.add


def test_tracing_count_includes_the_variable_creation_retrace():
    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    assert c().numpy() == 1 and c().numpy() == 2
    assert type(c).__call__.__get__(c, type(c)).experimental_get_tracing_count() == 2  # as TF: traced twice
