"""GraphDef.library (the FunctionDefs of the functions a graph calls) and GraphDef.versions, with
the values and printed forms TF 2.21 gave for the same functions."""
import re

import eagerflow as tf


def _strip_counter(name):
    return re.sub(r"_\d+$", "", name)


def _outer_graph_def():
    @tf.function
    def f(x):
        y = tf.cond(x > 0, lambda: x + 1., lambda: x - 1.)
        i, z = tf.while_loop(lambda i, z: i < 3, lambda i, z: (i + 1, z * 2.), (0, y))
        return z
    return f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph.as_graph_def()


def test_library_lists_branches_and_bodies():
    gd = _outer_graph_def()
    assert len(gd.library.function) == 4
    names = sorted(_strip_counter(f.signature.name) for f in gd.library.function)
    assert names == ["cond_false", "cond_true", "while_body", "while_cond"]
    calls = {n.op: n for n in gd.node if n.op in ("StatelessIf", "StatelessWhile")}
    assert {calls["StatelessIf"].attr["then_branch"].func.name,
            calls["StatelessWhile"].attr["body"].func.name} <= {f.signature.name for f in gd.library.function}


def test_versions_without_functions():
    @tf.function
    def f(x):
        return tf.reshape(x, [3, 2]) * 2.0
    gd = f.get_concrete_function(tf.TensorSpec([6], tf.float32)).graph.as_graph_def()
    assert gd.versions.producer == 2474 and gd.versions.min_consumer == 0
    assert str(gd).endswith("}\nversions {\n  producer: 2474\n}\n")


def test_versions_of_a_graph_with_functions():
    gd = _outer_graph_def()
    assert gd.versions.producer == 2474 and gd.versions.min_consumer == 12
    assert str(gd.versions) == "producer: 2474\nmin_consumer: 12\n"
    assert str(gd).endswith("versions {\n  producer: 2474\n  min_consumer: 12\n}\n")


def test_tf1_graph_with_cond_has_library():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [])
        tf.cond(x > 0, lambda: x + 1., lambda: x - 1.)
    gd = g.as_graph_def()
    assert len(gd.library.function) == 2
    assert (gd.versions.producer, gd.versions.min_consumer) == (2474, 12)


def test_tf1_graph_versions_and_no_library():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1.0)
    gd = g.as_graph_def()
    assert len(gd.library.function) == 0
    assert "library" not in str(gd)
    assert str(gd).endswith("versions {\n  producer: 2474\n}\n")


def test_function_def_of_a_trace():
    @tf.function
    def inner(x):
        return x * 2.0
    f = inner.get_concrete_function(tf.TensorSpec([2], tf.float32)).inference_fn.cached_definition
    name = f.signature.name
    assert name.startswith("__inference_inner_")
    assert str(f.signature) == ('name: "%s"\ninput_arg {\n  name: "x"\n  type: DT_FLOAT\n}\n'
                                'output_arg {\n  name: "identity"\n  type: DT_FLOAT\n}\n' % name)
    assert [(n.name, n.op, list(n.input)) for n in f.node_def] == [
        ("mul/y", "Const", []), ("mul", "Mul", ["x", "mul/y:output:0"]), ("Identity", "Identity", ["mul:z:0"])]
    assert f.ret == {"identity": "Identity:output:0"}
    assert str(f).endswith(
        'ret {\n  key: "identity"\n  value: "Identity:output:0"\n}\nattr {\n  key: "_construction_context"\n'
        '  value {\n    s: "kEagerRuntime"\n  }\n}\narg_attr {\n  key: 0\n  value {\n    attr {\n'
        '      key: "_user_specified_name"\n      value {\n        s: "x"\n      }\n    }\n    attr {\n'
        '      key: "_output_shapes"\n      value {\n        list {\n          shape {\n            dim {\n'
        '              size: 2\n            }\n          }\n        }\n      }\n    }\n  }\n}\n')


def test_cond_branch_signature():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x + 1., lambda: x - 1.)
    gd = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph.as_graph_def()
    fdefs = {_strip_counter(fd.signature.name): fd for fd in gd.library.function}
    assert sorted(fdefs) == ["cond_false", "cond_true"]
    false = fdefs["cond_false"]
    assert [a.type.name for a in false.signature.input_arg] == ["DT_FLOAT"]
    assert [a.type.name for a in false.signature.output_arg] == ["DT_FLOAT"]
    assert [n.op for n in false.node_def][:2] == ["Const", "Sub"]  # TF ends the branch with an Identity
