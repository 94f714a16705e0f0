"""tf.version (TF's six names; the GraphDef versions are those of the GraphDefs this package writes),
TF's queries of the graph being built (inside_function, get_current_name_scope, is_symbolic_tensor)
and tf.timestamp."""
import eagerflow as tf


def test_version_names():
    v = tf.version
    assert sorted(n for n in dir(v) if n.isupper()) == [
        "COMPILER_VERSION", "GIT_VERSION", "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER",
        "GRAPH_DEF_VERSION_MIN_PRODUCER", "VERSION"]
    assert v.VERSION == tf.__version__ and v.GIT_VERSION == "unknown"
    assert isinstance(v.COMPILER_VERSION, str) and v.COMPILER_VERSION
    assert (v.GRAPH_DEF_VERSION, v.GRAPH_DEF_VERSION_MIN_CONSUMER, v.GRAPH_DEF_VERSION_MIN_PRODUCER) == (2474, 0, 0)

    @tf.function
    def f(x):
        return x + 1
    graph_def = f.get_concrete_function(tf.constant(1.0)).graph.as_graph_def()
    assert graph_def.versions.producer == v.GRAPH_DEF_VERSION


def test_graph_context_queries_as_tf():
    # TF 2.21's answers for the same calls.
    assert (tf.inside_function(), tf.get_current_name_scope()) == (False, "")
    assert not any(tf.is_symbolic_tensor(x) for x in (tf.constant(1), tf.Variable(1.0), 3))
    with tf.name_scope("outer"):
        with tf.name_scope("inner"):
            assert tf.get_current_name_scope() == "outer/inner"
    seen = []

    @tf.function
    def f(x):
        with tf.name_scope("s"):
            seen.append((tf.inside_function(), tf.get_current_name_scope(), tf.is_symbolic_tensor(x)))
        return x
    f(tf.constant(1.0))
    assert seen == [(True, "s", True)]
    with tf.Graph().as_default():
        assert not tf.inside_function() and tf.is_symbolic_tensor(tf.constant(1))
        with tf.name_scope("a"):
            assert tf.get_current_name_scope() == "a"


def test_timestamp_reads_the_clock_on_every_call():
    import time
    t = tf.timestamp()
    assert t.dtype == tf.float64 and t.shape == [] and abs(float(t) - time.time()) < 5

    @tf.function
    def f():
        return tf.timestamp()
    first = float(f())
    time.sleep(0.01)
    assert float(f()) > first  # not folded into a constant
    assert [op.type for op in f.get_concrete_function().graph.get_operations()] == ["Timestamp", "Identity"]
