"""tf.version: TF's six names; the GraphDef versions are those of the GraphDefs this package writes."""
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
