"""tf.function basics: decorator forms, retracing rules, print vs result, nested structures,
nested Functions, ConcreteFunction, run_functions_eagerly, variables, captures, and the C++ call
path (fast cache, buffer reuse) giving the same results as the Python path and as eager."""
import collections

import numpy as np
import pytest

import eagerflow as tf


def _traces(f):
    return f.experimental_get_tracing_count()


# --- decorator and call forms -----------------------------------------------------------------------

def test_decorator_forms():
    def add(a, b):
        return a + b

    f1 = tf.function(add)

    @tf.function
    def f2(a, b):
        return a + b

    @tf.function(reduce_retracing=True)
    def f3(a, b):
        return a + b

    @tf.function()
    def f4(a, b):
        return a + b

    a, b = tf.constant([1, 2]), tf.constant([10, 20])
    for f in (f1, f2, f3, f4):
        assert type(f).__name__ == "Function"
        np.testing.assert_array_equal(f(a, b).numpy(), [11, 22])
    assert f1.python_function is add
    assert f2.python_function.__name__ == "f2"
    assert f2.__name__ == "f2"
    assert tf.function(lambda x: x * 2)(tf.constant(3)).numpy() == 6


def test_python_function_runs_eagerly_when_called_directly():
    @tf.function
    def f(x):
        return x + 1

    assert f.python_function(tf.constant(1)).numpy() == 2
    assert _traces(f) == 0


# --- retracing ----------------------------------------------------------------------------------------

def test_retrace_per_dtype_and_shape():
    seen = []

    @tf.function
    def f(x):
        seen.append((x.dtype, tuple(x.shape)))
        return x + x

    assert f(tf.constant(1)).numpy() == 2
    assert f(tf.constant(2)).numpy() == 4
    assert _traces(f) == 1
    assert f(tf.constant(1.5)).numpy() == 3.0
    assert _traces(f) == 2
    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), [2, 4])
    np.testing.assert_array_equal(f(tf.constant([3, 4])).numpy(), [6, 8])
    np.testing.assert_array_equal(f(tf.constant([[1]])).numpy(), [[2]])
    assert _traces(f) == 4
    assert seen == [(tf.int32, ()), (tf.float32, ()), (tf.int32, (2,)), (tf.int32, (1, 1))]
    # alternating signatures keep using their own traces
    for _ in range(3):
        assert f(tf.constant(5)).numpy() == 10
        assert f(tf.constant(0.25)).numpy() == 0.5
    assert _traces(f) == 4


def test_retrace_per_python_value():
    @tf.function
    def f(x, n):
        return x * n

    x = tf.constant(3)
    assert f(x, 2).numpy() == 6
    assert f(x, 2).numpy() == 6
    assert _traces(f) == 1
    assert f(x, 3).numpy() == 9
    assert _traces(f) == 2
    assert f(x, True).numpy() == 3  # bool is its own value, not 1
    assert _traces(f) == 3
    assert f(tf.constant(1.5), 2.0).numpy() == 3.0
    assert f(tf.constant(1.5), 2.0).numpy() == 3.0
    assert _traces(f) == 4


def test_python_string_and_none_arguments():
    @tf.function
    def f(x, mode, extra):
        assert extra is None
        return x * 2 if mode == "double" else x + 100

    x = tf.constant(1)
    assert f(x, "double", None).numpy() == 2
    assert f(x, "add", None).numpy() == 101
    assert f(x, "double", None).numpy() == 2
    assert _traces(f) == 2


def test_numpy_arguments_are_tensors():
    @tf.function
    def f(x):
        return x * 2

    np.testing.assert_array_equal(f(np.array([1.0, 2.0], np.float32)).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(f(np.array([3.0, 4.0], np.float32)).numpy(), [6.0, 8.0])
    assert _traces(f) == 1
    assert f(tf.constant([1.0, 1.0])).dtype == tf.float32
    assert _traces(f) == 1  # same dtype and shape as the NumPy arrays


# --- printing -----------------------------------------------------------------------------------------

def test_print_runs_only_while_tracing(capsys):
    @tf.function
    def f(x):
        print("tracing", x)
        return x + 1

    results = [f(tf.constant(float(i))).numpy() for i in range(3)]
    assert results == [1.0, 2.0, 3.0]
    out = capsys.readouterr().out
    assert out == 'tracing Tensor("x:0", shape=(), dtype=float32)\n'
    f(tf.constant([1.0]))
    assert capsys.readouterr().out == 'tracing Tensor("x:0", shape=(1,), dtype=float32)\n'


# --- structures ---------------------------------------------------------------------------------------

def test_nested_structure_arguments():
    @tf.function
    def f(pair, items, d, scale, nothing):
        a, b = pair
        assert nothing is None
        return a + b + items[0] * d["k"] * scale

    r = f((tf.constant(1), tf.constant(2)), [tf.constant(3)], {"k": tf.constant(4)}, 2, None)
    assert r.numpy() == 1 + 2 + 3 * 4 * 2
    r = f((tf.constant(10), tf.constant(20)), [tf.constant(1)], {"k": tf.constant(1)}, 2, None)
    assert r.numpy() == 32
    assert _traces(f) == 1
    f((tf.constant(1), tf.constant(2)), [tf.constant(3)], {"k": tf.constant(4)}, 3, None)
    assert _traces(f) == 2


def test_nested_structure_results():
    @tf.function
    def f(x, y):
        return {"s": x + y, "t": (x * y, None, [x - y])}

    r = f(tf.constant(5), tf.constant(3))
    assert set(r) == {"s", "t"}
    assert r["s"].numpy() == 8
    assert isinstance(r["t"], tuple) and r["t"][1] is None
    assert r["t"][0].numpy() == 15
    assert isinstance(r["t"][2], list) and r["t"][2][0].numpy() == 2
    r = f(tf.constant(1), tf.constant(1))  # the cached call packs the same way
    assert r["s"].numpy() == 2 and r["t"][1] is None and r["t"][2][0].numpy() == 0


def test_python_values_in_results_become_tensors():
    @tf.function
    def f(x):
        return x, 3, 2.5, "s", True, None, ()

    r = f(tf.constant(1))
    assert r[0].numpy() == 1
    assert r[1].dtype == tf.int32 and r[1].numpy() == 3
    assert r[2].dtype == tf.float32 and r[2].numpy() == 2.5
    assert r[3].dtype == tf.string and r[3].numpy() == b"s"
    assert r[4].dtype == tf.bool and r[4].numpy()
    assert r[5] is None and r[6] == ()

    @tf.function
    def g():
        return 7

    assert isinstance(g(), tf.Tensor) and g().numpy() == 7


def test_returns_none_and_single_values():
    calls = []

    @tf.function
    def nothing(x):
        calls.append(1)

    assert nothing(tf.constant(1)) is None
    assert nothing(tf.constant(2)) is None
    assert len(calls) == 1

    @tf.function
    def identity(x):
        return x

    x = tf.constant([1.0, 2.0])
    y = identity(x)
    np.testing.assert_array_equal(y.numpy(), [1.0, 2.0])


def test_keyword_and_default_arguments():
    @tf.function
    def f(x, y=tf.constant(10), *, scale=1):
        return (x + y) * scale

    assert f(tf.constant(1)).numpy() == 11
    assert f(tf.constant(1), tf.constant(2)).numpy() == 3
    assert f(tf.constant(1), y=tf.constant(2)).numpy() == 3
    assert f(x=tf.constant(1), y=tf.constant(2), scale=3).numpy() == 9
    assert f(tf.constant(1), scale=2).numpy() == 22


# --- Functions calling Functions ----------------------------------------------------------------------

def test_function_calling_function():
    @tf.function
    def inner(x):
        return x * 2

    @tf.function
    def outer(x):
        return inner(x) + 1

    assert outer(tf.constant(3)).numpy() == 7
    assert outer(tf.constant(4)).numpy() == 9
    assert inner(tf.constant(5)).numpy() == 10
    ops = [op.type for op in outer.get_concrete_function(tf.constant(3)).graph.get_operations()]
    assert "Mul" in ops and "AddV2" in ops


# --- ConcreteFunction ---------------------------------------------------------------------------------

def test_get_concrete_function():
    @tf.function
    def f(x, y):
        return {"s": x + y, "t": (x * y, None)}

    cf = f.get_concrete_function(tf.constant(1.0), tf.constant(2.0))
    assert type(cf).__name__ == "ConcreteFunction"
    assert [t.name for t in cf.inputs] == ["x:0", "y:0"]
    assert [t.dtype for t in cf.inputs] == [tf.float32, tf.float32]
    assert [t.name for t in cf.outputs] == ["Identity:0", "Identity_1:0"]
    so = cf.structured_outputs
    assert so["s"].name == "Identity:0" and so["t"][0].name == "Identity_1:0" and so["t"][1] is None
    assert cf.graph.get_operation_by_name("x").type == "Placeholder"
    r = cf(tf.constant(1.0), tf.constant(5.0))
    assert r["s"].numpy() == 6.0 and r["t"][0].numpy() == 5.0
    r = cf(tf.constant(1.0), y=tf.constant(5.0))
    assert r["s"].numpy() == 6.0
    r = cf(x=tf.constant(2.0), y=tf.constant(5.0))
    assert r["t"][0].numpy() == 10.0
    # the same trace serves later calls of the Function
    f(tf.constant(3.0), tf.constant(4.0))
    assert _traces(f) == 1
    assert f.get_concrete_function(tf.constant(7.0), tf.constant(8.0)) is cf


def test_get_concrete_function_with_tensor_spec():
    @tf.function
    def f(x):
        return x * 2

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    assert cf.inputs[0].shape.as_list() == [None]
    np.testing.assert_array_equal(cf(tf.constant([1.0, 2.0, 3.0])).numpy(), [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(cf(tf.constant([5.0])).numpy(), [10.0])


def test_concrete_function_wrong_dtype():
    @tf.function
    def f(x):
        return x + x

    cf = f.get_concrete_function(tf.constant(1.0))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"as input #0\(zero-based\) was expected to be a float tensor but is a int32 tensor"):
        cf(tf.constant(1))


# --- run_functions_eagerly ----------------------------------------------------------------------------

def test_run_functions_eagerly(capsys):
    @tf.function
    def f(x):
        print("body", type(x).__name__, x._is_symbolic)
        return x + 1

    assert not tf.config.functions_run_eagerly()
    f(tf.constant(1))  # traced (and cached in C++) before switching
    capsys.readouterr()
    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        assert f(tf.constant(1)).numpy() == 2
        assert f(tf.constant(2)).numpy() == 3
        assert capsys.readouterr().out == "body EagerTensor False\nbody EagerTensor False\n"
    finally:
        tf.config.run_functions_eagerly(False)
    assert f(tf.constant(5)).numpy() == 6
    assert capsys.readouterr().out == ""
    assert _traces(f) == 1


# --- variables and captures ---------------------------------------------------------------------------

def test_variables_are_read_live():
    v = tf.Variable(1.0)

    @tf.function
    def read():
        return v * 2

    assert read().numpy() == 2.0
    v.assign(5.0)
    assert read().numpy() == 10.0
    assert _traces(read) == 1


def test_assign_add_inside_function_persists():
    v = tf.Variable(1.0)

    @tf.function
    def inc(step):
        v.assign_add(step)

    assert inc(tf.constant(1.0)) is None
    inc(tf.constant(2.0))
    assert v.numpy() == 4.0
    assert _traces(inc) == 1


def test_captured_eager_tensors():
    c = tf.constant([1.0, 2.0])

    @tf.function
    def f(x):
        return x + c

    np.testing.assert_array_equal(f(tf.constant(1.0)).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(f(tf.constant(2.0)).numpy(), [3.0, 4.0])
    c = tf.constant([100.0, 200.0])  # captured by value at trace time, as in TF
    np.testing.assert_array_equal(f(tf.constant(1.0)).numpy(), [2.0, 3.0])
    assert _traces(f) == 1


# --- the executor: results identical to eager, buffers reused safely ----------------------------------

def _chain(x, w):
    y = x
    for i in range(12):
        y = tf.nn.relu(y * w + 0.5) if i % 3 else tf.exp(-y * y) + y
    return y, y * 2, x


def test_function_results_equal_eager_across_sizes():
    f = tf.function(_chain)
    rng = np.random.default_rng(0)
    for n in (1, 7, 100, 5000):
        x = tf.constant(rng.standard_normal(n).astype(np.float32))
        w = tf.constant(rng.standard_normal(n).astype(np.float32))
        for got, want in zip(f(x, w), _chain(x, w)):
            np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_outputs_are_not_overwritten_by_later_calls():
    @tf.function
    def f(x):
        a = x * 2.0
        b = a + 1.0
        c = b * 3.0
        return c, a

    x1 = tf.constant(np.arange(1000, dtype=np.float32))
    x2 = tf.constant(np.full(1000, 7.0, np.float32))
    c1, a1 = f(x1)
    keep_c, keep_a = c1.numpy().copy(), a1.numpy().copy()
    c2, a2 = f(x2)
    np.testing.assert_array_equal(c1.numpy(), keep_c)
    np.testing.assert_array_equal(a1.numpy(), keep_a)
    np.testing.assert_array_equal(x1.numpy(), np.arange(1000, dtype=np.float32))  # inputs untouched
    np.testing.assert_array_equal(c2.numpy(), np.full(1000, 45.0, np.float32))


def test_values_held_elsewhere_are_not_reused():
    v = tf.Variable(np.zeros(256, np.float32))

    @tf.function
    def f(x):
        y = x + 1.0
        v.assign(y)     # the variable keeps y: its buffer must not be recycled
        z = y * 2.0     # same size as y
        return z * 1.0

    x = tf.constant(np.arange(256, dtype=np.float32))
    z = f(x)
    np.testing.assert_array_equal(v.numpy(), np.arange(256, dtype=np.float32) + 1)
    np.testing.assert_array_equal(z.numpy(), (np.arange(256, dtype=np.float32) + 1) * 2)


def test_errors_name_the_node():
    @tf.function
    def f(x, y):
        return tf.matmul(x, y)

    # Shapes known while tracing: the graph build fails (ValueError, as in TF).
    with pytest.raises(ValueError, match="Dimensions must be equal"):
        f(tf.ones([2, 3]), tf.ones([2, 3]))
    # Shapes unknown until run time: the kernel fails and the error names the node.
    cf = f.get_concrete_function(tf.TensorSpec([None, None]), tf.TensorSpec([None, None]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible") as e:
        cf(tf.ones([2, 3]), tf.ones([2, 3]))
    assert "{{node MatMul}}" in str(e.value)


def test_fast_path_key_distinguishes_argument_kinds():
    from eagerflow import _core
    k = _core.FunctionCache().key_of
    t1, t2 = tf.constant(1), tf.constant(1.0)
    assert k((t1,)) != k((t2,))
    assert k((tf.constant([1]),)) != k((t1,))
    assert k((1,)) != k((True,)) != k((1.0,))
    assert k((1,)) == k((1,)) and k(("a",)) != k(("b",))
    assert k((np.ones(2),)) is None  # arrays take the Python path (converted there)
    # Structures are keyed by kind, length, dict keys and their leaves.
    assert k(([t1],)) != k(((t1,),)) != k(({"a": t1},))
    assert k(({"a": t1, "b": t2},)) == k(({"b": t2, "a": t1},))  # tf.nest order: sorted keys
    assert k(({"a": t1},)) != k(({"b": t1},)) and k(([t1, t1],)) != k(([t1],))
    assert k(({1: t1},)) is None  # non-str keys: Python path
    Pair = collections.namedtuple("Pair", "x y")
    assert k((Pair(t1, t2),)) is not None and k((Pair(t1, t2),)) != k(((t1, t2),))


_Point = collections.namedtuple("_Point", "x y")


@pytest.mark.parametrize("make", [
    lambda c: [c[0], c[1]],
    lambda c: (c[0], (c[1], [c[2]])),
    lambda c: {"b": c[0], "a": {"z": c[1], "y": [c[2], 3]}},
    lambda c: _Point(c[0], {"k": c[1]}),
    lambda c: {"lr": 0.5, "name": "s", "t": (c[0], None, True)},
], ids=["list", "nested-tuple", "nested-dict", "namedtuple", "scalars"])
def test_structured_arguments_take_the_fast_path(make):
    c = [tf.constant([float(i + 1)]) for i in range(3)]

    @tf.function
    def f(s):
        return tf.add_n([x for x in tf.nest.flatten(s) if isinstance(x, tf.Tensor)])

    want = sum(float(x.numpy()[0]) for x in tf.nest.flatten(make(c)) if isinstance(x, tf.Tensor))
    assert f(make(c)).numpy()[0] == want  # traces, then remembers the key in C++
    assert f._fast.call((make(c),)) is not NotImplemented  # later calls: the C++ cache
    c2 = [tf.constant([float(10 * (i + 1))]) for i in range(3)]
    # New values of the same structure reuse the trace and feed the new tensors in tf.nest order.
    want2 = sum(float(x.numpy()[0]) for x in tf.nest.flatten(make(c2)) if isinstance(x, tf.Tensor))
    assert f(make(c2)).numpy()[0] == want2
    assert f.experimental_get_tracing_count() == 1


class _Pair:
    """A class with TF's CustomNestProtocol: metadata m, components (x, y)."""

    def __init__(self, x, y, m=("a", 1)):
        self.x, self.y, self.m = x, y, m

    def __tf_flatten__(self):
        return self.m, (self.x, self.y)

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        return cls(*components, m=metadata)


def test_custom_nest_arguments_trace_by_structure():
    c = tf.constant([2.0])

    @tf.function
    def f(p):
        return p.x + p.y

    # TF's CustomNestTraceType: class, metadata and component types key the trace.
    assert f(_Pair(c, c)).numpy()[0] == 4.0
    assert f._fast.call((_Pair(c, c),)) is not NotImplemented
    assert f(_Pair(c, 3 * c)).numpy()[0] == 8.0  # new tensors, same trace, fed not captured
    assert f.experimental_get_tracing_count() == 1
    assert f(_Pair(c, c, ["u"])).numpy()[0] == 4.0  # unhashable metadata
    assert f(_Pair(c, c, ["u"])).numpy()[0] == 4.0
    assert f(_Pair(c, 1.0)).numpy()[0] == 3.0  # a Python float component keys by value
    assert f.experimental_get_tracing_count() == 3
    assert str(f.get_concrete_function(_Pair(c, c)).function_type) == (
        "(p: CustomNestTraceType [metadata=('a', 1), components=(TensorSpec(shape=(1,), dtype=tf.float32, "
        "name=None), TensorSpec(shape=(1,), dtype=tf.float32, name=None))]) -> TensorSpec(shape=(1,), "
        "dtype=tf.float32, name=None)")


def test_custom_nest_metadata_with_a_tensor_takes_the_python_path():
    c = tf.constant([2.0])

    @tf.function
    def f(p):
        return p.x + p.y

    assert f(_Pair(c, c, m=c)).numpy()[0] == 4.0
    assert f._fast.call((_Pair(c, c, m=c),)) is NotImplemented


def test_custom_nest_key_leaves_typed_objects_to_python():
    from eagerflow import _core
    key_of = _core.FunctionCache().key_of
    c = tf.constant([1.0])
    assert key_of((_Pair(c, c),)) is not None

    class WithTracingType(_Pair):
        def __tf_tracing_type__(self, context):
            raise NotImplementedError

    class WithTypeSpec(_Pair):  # what a CompositeTensor has: the Python path types it by its spec
        _type_spec = None

    assert key_of((WithTracingType(c, c),)) is None
    assert key_of((WithTypeSpec(c, c),)) is None
    assert key_of((_Pair,),) is None  # the class itself is not an instance of the protocol


def test_variable_arguments_take_the_fast_path():
    v, w = tf.Variable([1.0]), tf.Variable([10.0])

    @tf.function
    def f(a, b):
        return a + b

    assert f(v, w).numpy()[0] == 11.0
    assert f._fast.call((v, w)) is not NotImplemented
    w.assign([20.0])
    assert f(w, v).numpy()[0] == 21.0  # each call feeds its own variables' handles
    assert f.experimental_get_tracing_count() == 1
    assert f(v, v).numpy()[0] == 2.0  # an alias is another VariableSpec (alias_id 0 twice)
    assert f._fast.call((v, v)) is not NotImplemented
    assert f(tf.Variable([5.0], trainable=False), w).numpy()[0] == 25.0  # trainability keys it
    assert f(tf.Variable([1.0, 2.0]), w).numpy().tolist() == [21.0, 22.0]  # so does the shape
    assert f(tf.Variable([1.0], shape=tf.TensorShape(None)), w).numpy()[0] == 21.0
    assert f.experimental_get_tracing_count() == 5
    assert f({"k": v}["k"], w).numpy()[0] == 21.0
    assert f.experimental_get_tracing_count() == 5


def test_variable_arguments_assign_through_the_fast_path():
    v = tf.Variable(1.0)

    @tf.function
    def bump(var, by):
        var.assign_add(by)
        return var.read_value()

    for i in range(3):
        assert bump(v, tf.constant(2.0)).numpy() == 1.0 + 2.0 * (i + 1)
    assert bump._fast.call((v, tf.constant(0.0))) is not NotImplemented
    assert v.numpy() == 7.0


def test_structured_arguments_keep_python_values_in_the_key():
    @tf.function
    def f(s):
        return s["x"] * s["scale"]

    x = tf.constant(2.0)
    assert f({"x": x, "scale": 3.0}).numpy() == 6.0
    assert f({"x": x, "scale": 4.0}).numpy() == 8.0  # a different Literal: a new trace
    assert f({"x": x, "scale": 3.0}).numpy() == 6.0
    assert f.experimental_get_tracing_count() == 2


def test_concurrent_calls_from_threads():
    import threading

    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0 - 1.0)

    results, errors = {}, []

    def work(k):
        try:
            x = tf.constant(np.full(3000, float(k), np.float32))  # large enough to release the GIL
            for _ in range(50):
                r = f(x)
            results[k] = r.numpy()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        np.testing.assert_array_equal(results[k], np.full(3000, max(2.0 * k - 1.0, 0.0), np.float32))
