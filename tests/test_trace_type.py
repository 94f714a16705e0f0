"""tf.function's TraceType rules and trace cache: what retraces, which trace a call uses, input_signature,
reduce_retracing, the retracing warning and the cache's bounds."""
import collections
import dataclasses
import functools
import gc
import logging
import weakref

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.function import function_cache, trace_type
from eagerflow.function.trace_type import TensorType


def counting(fn=None, **kw):
    """A tf.function whose traces are counted in .traces (Python side effect)."""
    def wrap(f):
        log = []

        @functools.wraps(f)  # keeps f's signature (inspect follows __wrapped__)
        def body(*a, **k):
            log.append(1)
            return f(*a, **k)
        g = tf.function(body, **kw)
        g.traces = log
        return g
    return wrap if fn is None else wrap(fn)


# --- TensorType ------------------------------------------------------------------------------------

def test_tensor_type_subtypes():
    f32, i32 = tf.float32._type_enum, tf.int32._type_enum
    fixed, none_dim, unknown = TensorType(f32, (2, 3)), TensorType(f32, (None, 3)), TensorType(f32, None)
    assert fixed.is_subtype_of(none_dim) and fixed.is_subtype_of(unknown) and none_dim.is_subtype_of(unknown)
    assert not none_dim.is_subtype_of(fixed) and not unknown.is_subtype_of(none_dim)
    assert not TensorType(f32, (2,)).is_subtype_of(none_dim)  # rank differs
    assert not TensorType(i32, (2, 3)).is_subtype_of(none_dim)  # dtype differs
    assert fixed.is_subtype_of(fixed) and fixed == TensorType(f32, [2, 3]) and hash(fixed) == hash(TensorType(f32, (2, 3)))
    assert TensorType(f32, ()).is_subtype_of(unknown) and not TensorType(f32, ()).is_subtype_of(TensorType(f32, (None,)))


def test_tensor_type_common_supertype():
    f32 = tf.float32._type_enum
    a, b = TensorType(f32, (2, 3)), TensorType(f32, (4, 3))
    assert a.most_specific_common_supertype([b]) == TensorType(f32, (None, 3))
    assert a.most_specific_common_supertype([TensorType(f32, (2,))]) == TensorType(f32, None)
    assert a.most_specific_common_supertype([a]) == a
    assert a.most_specific_common_supertype([TensorType(tf.int32._type_enum, (2, 3))]) is None


def test_tensor_spec_name_does_not_change_the_type():
    assert trace_type.from_value(tf.TensorSpec([2], tf.int32, name="q")) == trace_type.from_value(tf.constant([1, 2]))


# --- which calls retrace ---------------------------------------------------------------------------

def test_python_primitives_by_value_and_type():
    @counting
    def f(x):
        return tf.constant(0)

    for v in [1, 1.0, True, "relu", None, 1, 1.0, True, "relu", None, 2, b"relu"]:
        f(v)
    assert len(f.traces) == 7 and f.experimental_get_tracing_count() == 7


def test_tensors_by_dtype_and_shape():
    @counting
    def f(x):
        return x

    for x in [tf.constant(1), tf.constant(2), tf.constant(1.0), tf.constant([1]), tf.constant([2]), tf.constant([1, 2]),
              np.array([1.0, 2.0], np.float32), tf.constant([3.0, 4.0])]:
        f(x)
    assert len(f.traces) == 5


def test_lists_and_tuples_ordered_dicts_unordered():
    @counting
    def f(x):
        return tf.constant(0)

    f([1, "a"])
    f([1, "a"])
    f(["a", 1])
    f((1, "a"))
    assert len(f.traces) == 3
    f({"a": tf.constant(1), "b": 2})
    f({"b": 2, "a": tf.constant(5)})
    assert len(f.traces) == 4
    f({"a": tf.constant(1), "b": 3})
    assert len(f.traces) == 5


def test_namedtuples_structurally():
    P = collections.namedtuple("P", "x y")
    Q = collections.namedtuple("Q", "x y")

    @counting
    def f(v):
        return v.x * 2

    f(P(tf.constant(1), 2))
    f(P(tf.constant(5), 2))
    f(Q(tf.constant(5), 2))  # another class: another trace
    assert len(f.traces) == 2


def test_dataclasses_are_plain_objects():
    # TF 2.21 has no dataclass structure: an instance is keyed by weak reference (its equality and
    # hash while alive), and an unhashable one cannot be traced.
    @dataclasses.dataclass(frozen=True)
    class Frozen:
        a: int

    @dataclasses.dataclass
    class Mutable:
        a: int

    @counting
    def f(p):
        return p.a

    a, b = Frozen(1), Frozen(1)
    f(a), f(b), f(a)
    assert len(f.traces) == 1  # equal live instances share a trace
    f(Frozen(2))
    f(Frozen(2))  # the first one died with its trace
    assert len(f.traces) == 3
    with pytest.raises(TypeError) as e:
        f(Mutable(1))
    assert str(e.value) == ("Could not generate a generic TraceType for test_dataclasses_are_plain_objects.<locals>."
                            "Mutable(a=1).Please verify that it is immutable/hashable. Otherwise, consider "
                            "implementing the Tracing Protocol for it.")


def test_tracing_protocol():
    class KindType(tf.types.experimental.TraceType):
        def __init__(self, kind):
            self.kind = kind

        def is_subtype_of(self, other):
            return type(other) is KindType and self.kind is other.kind

        def most_specific_common_supertype(self, others):
            return self if all(self == o for o in others) else None

        def __eq__(self, other):
            return type(other) is KindType and self.kind == other.kind

        def __hash__(self):
            return hash(self.kind)

    class Thing:
        def __init__(self, value):
            self.value = value

        def __tf_tracing_type__(self, context):
            assert isinstance(context, tf.types.experimental.TracingContext)
            return KindType(type(self))

    class A(Thing):
        pass

    @counting
    def f(t):
        return tf.constant(t.value)

    assert f(A(1)).numpy() == 1
    assert f(A(2)).numpy() == 1  # one trace per kind: the traced value stays
    f(Thing(3))
    assert len(f.traces) == 2


def test_trace_type_is_abstract():
    with pytest.raises(TypeError):
        tf.types.experimental.TraceType()


def test_generic_objects_by_weakref_and_equality():
    class Fruit:
        flavor = tf.constant([0, 0])

    class Apple(Fruit):
        flavor = tf.constant([1, 2])

    @counting
    def f(a):
        return a.flavor

    # The guide's Apple/Mango: a fresh object each call retraces (the first one is gone).
    f(Apple())
    f(Apple())
    assert len(f.traces) == 2
    apple = Apple()
    f(apple)
    f(apple)
    assert len(f.traces) == 3

    class Key:
        def __init__(self, k):
            self.k = k

        def __eq__(self, other):
            return isinstance(other, Key) and other.k == self.k

        def __hash__(self):
            return hash(self.k)

    a, b = Key(1), Key(1)
    f2 = counting(lambda k: tf.constant(k.k))
    f2(a)
    f2(b)  # equal while both live: shares a's trace
    assert len(f2.traces) == 1


def test_cache_does_not_keep_objects_alive_and_dead_traces_are_dropped():
    class Obj:
        pass

    @tf.function
    def f(o):
        return tf.constant(1)

    o = Obj()
    r = weakref.ref(o)
    f(o)
    assert len(f._cache) == 1
    del o
    gc.collect()
    assert r() is None
    assert len(f._cache) == 0
    for _ in range(50):
        f(Obj())
    gc.collect()
    assert len(f._cache) == 0 and f.experimental_get_tracing_count() == 51


def test_unhashable_objects_rejected():
    class U:
        __hash__ = None

    @tf.function
    def f(x):
        return 1

    u = U()
    with pytest.raises(TypeError, match=r"^Could not generate a generic TraceType for <.*U object at 0x[0-9a-f]+>\.Please "
                                        r"verify that it is immutable/hashable\. Otherwise, consider implementing the "
                                        r"Tracing Protocol for it\.$"):
        f(u)


def test_variables_share_a_trace_by_spec():
    v1, v2 = tf.Variable(1.0), tf.Variable(2.0)

    @counting
    def f(v):
        return v + 1.0

    assert f(v1).numpy() == 2.0
    assert f(v2).numpy() == 3.0
    assert f(v1).numpy() == 2.0
    v1.assign(5.0)
    assert f(v1).numpy() == 6.0  # read live
    assert len(f.traces) == 1
    assert f(tf.Variable([1.0])).numpy() == [2.0]  # another shape: another trace
    assert len(f.traces) == 2


def test_traces_belong_to_one_function():
    def body(x):
        return x + 1
    f, g = tf.function(body), tf.function(body)
    f(tf.constant(1))
    g(tf.constant(1))
    assert f.experimental_get_tracing_count() == 1 and g.experimental_get_tracing_count() == 1


# --- lookup: exact hit, else the most specific supertype ------------------------------------------

def test_most_specific_trace_is_chosen():
    @tf.function
    def f(x):
        return tf.constant(str(x.shape))  # which trace ran

    x3, x4 = tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0, 3.0, 4.0])
    assert f(x3).numpy() == b"(3,)"
    f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    unknown = f.get_concrete_function(tf.TensorSpec(None, tf.float32))
    for _ in range(2):  # the second round runs from the C++ cache
        assert f(x4).numpy() == b"(None,)"  # fits (None,) and <unknown>: the more specific wins
        assert f(x3).numpy() == b"(3,)"
        assert f(tf.constant([[1.0]])).numpy() == b"<unknown>"
    # as TF: get_concrete_function also takes the most specific existing trace
    assert f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32)) is unknown
    assert f.get_concrete_function(tf.TensorSpec([None], tf.float32)) is not unknown
    assert f.experimental_get_tracing_count() == 3
    with pytest.raises(tf.errors.InvalidArgumentError):
        f.get_concrete_function(tf.TensorSpec([3], tf.float32))(tf.constant([1, 2, 3]))


def test_most_specific_among_several_parameters():
    @tf.function
    def f(x, y):
        return tf.constant(str(x.shape) + str(y.shape))

    a = f.get_concrete_function(tf.TensorSpec([None]), tf.TensorSpec([2]))
    b = f.get_concrete_function(tf.TensorSpec([None]), tf.TensorSpec([None]))
    assert a is not b
    assert f(tf.ones([5]), tf.ones([2])).numpy() == b"(None,)(2,)"
    assert f(tf.ones([5]), tf.ones([3])).numpy() == b"(None,)(None,)"


def test_exact_hits_with_many_signatures():
    @tf.function
    def f(x, n):
        return x + n

    for n in range(300):
        f(tf.constant(1), n)
    assert f.experimental_get_tracing_count() == 300
    for n in range(300):
        assert f(tf.constant(1), n).numpy() == n + 1
    assert f.experimental_get_tracing_count() == 300


def test_bounded_cache(monkeypatch):
    monkeypatch.setattr(function_cache, "MAX_TRACES", 8)

    @tf.function
    def f(n):
        return tf.constant(n)

    for n in range(20):
        assert f(n).numpy() == n
    assert len(f._cache) == 8
    assert f(0).numpy() == 0  # evicted traces come back by retracing


# --- reduce_retracing ----------------------------------------------------------------------------

def test_reduce_retracing_generalizes_shapes():
    shapes = []

    @tf.function(reduce_retracing=True)
    def f(x):
        shapes.append(str(getattr(x, "shape", x)))
        return x

    for s in [[1], [2], [3], [2, 2], [3, 3], [1]]:
        f(tf.zeros(s))
    f(1)
    f(2)
    f(tf.zeros([], tf.int32))
    f(tf.zeros([4], tf.int32))
    # as TensorFlow 2.21 traces it
    assert shapes == ["(1,)", "(None,)", "<unknown>", "1", "2", "()", "<unknown>"]
    assert f.experimental_get_tracing_count() == 7


def test_experimental_relax_shapes_alias():
    @tf.function(experimental_relax_shapes=True)
    def f(x):
        return x

    f(tf.zeros([1]))
    f(tf.zeros([2]))
    f(tf.zeros([5]))
    assert f.experimental_get_tracing_count() == 2


# --- retracing warning ------------------------------------------------------------------------------

RETRACE_TEXT = ("triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be "
                "due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
                "passing Python objects instead of tensors. For (1), please define your @tf.function outside of the "
                "loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary retracing. "
                "For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
                "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


@pytest.fixture
def tf_warnings():
    """Messages the 'tensorflow' logger emits during the test."""
    records = []

    class Handler(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())
    logger, handler = tf.get_logger(), Handler()
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    yield records
    logger.removeHandler(handler)
    logger.propagate = propagate


def test_retracing_warning(tf_warnings):
    def body(x):
        return x

    f = tf.function(body)
    for i in range(8):
        f(tf.zeros([i + 1]))
    assert tf_warnings == ["5 out of the last 5 calls to %r %s" % (body, RETRACE_TEXT),
                           "6 out of the last 6 calls to %r %s" % (body, RETRACE_TEXT)]


def test_retracing_warning_window(tf_warnings):
    @tf.function(reduce_retracing=True)
    def h(x):
        return x

    for s in [[1], [2], [3], [2, 2], [3, 3], [1]]:
        h(tf.zeros(s))
    h(1)
    h(2)
    h(tf.zeros([], tf.int32))
    assert [m[:27] for m in tf_warnings] == ["5 out of the last 8 calls t", "6 out of the last 9 calls t"]


def test_retracing_warning_counts_calls_without_tracing(tf_warnings):
    def body(x):
        return x

    f = tf.function(body)
    for i in range(5):
        f(tf.zeros([i + 1]))
        for _ in range(3):  # C++ cache hits count as calls too: the tracing calls leave the window
            f(tf.zeros([i + 1]))
    assert tf_warnings == []


def test_retracing_warning_for_functions_made_in_a_loop(tf_warnings):
    def body(x):
        return x + 1

    for _ in range(5):
        tf.function(body)(tf.constant(1))
    assert [m[:34] for m in tf_warnings] == ["5 out of the last 5 calls to <func"]


# --- input_signature -------------------------------------------------------------------------------

def test_input_signature_none_dims_trace_once():
    @counting(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def f(x):
        return x * 2

    np.testing.assert_array_equal(f(tf.constant([1, 2, 3])).numpy(), [2, 4, 6])
    np.testing.assert_array_equal(f(tf.constant([1, 2, 3, 4, 5])).numpy(), [2, 4, 6, 8, 10])
    np.testing.assert_array_equal(f([7, 8]).numpy(), [14, 16])  # convertible Python values
    np.testing.assert_array_equal(f(x=np.array([1], np.int32)).numpy(), [2])
    assert len(f.traces) == 1
    assert f.get_concrete_function() is f.get_concrete_function(tf.constant([9]))


def test_input_signature_unknown_rank_and_nested():
    @counting(input_signature=(tf.TensorSpec(shape=None, dtype=tf.float32),
                               [tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.float32)]))
    def f(x, pair):
        return x * 2.0, pair[0] + pair[1]

    x, p = f(tf.ones([2, 3]), [tf.ones([2]), tf.constant(1.0)])
    np.testing.assert_array_equal(x.numpy(), np.full([2, 3], 2.0))
    np.testing.assert_array_equal(p.numpy(), [2.0, 2.0])
    x, p = f(tf.ones([4]), [tf.ones([2]), 2.0])  # a list for a list spec (a tuple is TypeError, as in TF)
    np.testing.assert_array_equal(x.numpy(), np.full([4], 2.0))
    np.testing.assert_array_equal(p.numpy(), [3.0, 3.0])
    assert len(f.traces) == 1


def _incompatible(inputs, sig="TensorSpec(shape=(None,), dtype=tf.int32, name=None)"):
    return ("Python inputs incompatible with input_signature:\n  inputs: (\n    " + inputs + ")\n"
            "  input_signature: (\n    " + sig + ").")


def test_input_signature_errors():
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def f(x):
        return x

    with pytest.raises(ValueError) as e:
        f(tf.constant([[1, 2], [3, 4]]))
    assert str(e.value) == _incompatible("tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)")
    with pytest.raises(ValueError) as e:
        f(tf.constant([1.0, 2.0]))
    assert str(e.value) == _incompatible("tf.Tensor([1. 2.], shape=(2,), dtype=float32)")
    with pytest.raises(ValueError) as e:
        f(3)
    assert str(e.value) == _incompatible("3")
    with pytest.raises(ValueError) as e:  # Python values convert to the spec's dtype exactly
        f("s")
    assert str(e.value).startswith("Binding inputs to tf.function failed due to `Cannot convert 's' to EagerTensor "
                                   "of dtype int32`. Received args: ('s',) and kwargs: {} for signature: (x: "
                                   "TensorSpec(shape=(None,), dtype=tf.int32, name=None)).")
    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to `too many positional arguments`\. "
                                        r"Received args: .* and kwargs: \{\} for signature: \(x: TensorSpec\(shape=\(None,\), "
                                        r"dtype=tf\.int32, name=None\)\)\.$"):
        f(tf.constant([1]), tf.constant([2]))
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        f()


def test_input_signature_structure_mismatch():
    @tf.function(input_signature=([tf.TensorSpec([None]), tf.TensorSpec([None])],))
    def f(pair):
        return pair[0]

    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to `Expected \[1\.0\] to have "
                                        r"length of 2`\. .* for signature: \(pair: List\[TensorSpec"):
        f([1.0])
    with pytest.raises(TypeError, match=r"failed due to `Can not cast \(\[1\.0\], \[2\.0\]\) to list type\.`"):
        f(([1.0], [2.0]))
    with pytest.raises(ValueError, match="failed due to `Attempt to convert a value"):
        f([object(), 1.0])


def test_input_signature_must_be_specs():
    with pytest.raises(TypeError, match="input_signature must be either a tuple or a list"):
        tf.function(lambda x: x, input_signature=tf.TensorSpec([None]))
    with pytest.raises(TypeError, match="input_signature must be a possibly nested sequence of TensorSpec objects"):
        tf.function(lambda x: x, input_signature=[1])
    with pytest.raises(TypeError, match="input_signature contains 1 extra type constraints."):
        tf.function(lambda x: x, input_signature=[tf.TensorSpec([]), tf.TensorSpec([])])
