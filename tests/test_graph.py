"""Graph building API: symbolic tensors, names and name scopes, Graph/Operation introspection,
static shape inference with partially known shapes, TF's graph-build errors, and bad input
(leaked tensors, wrong feed dtypes, errors pointing at the user's line)."""
import sys
import traceback

import numpy as np
import pytest

import eagerflow as tf

tf1 = tf.compat.v1

BOOL_MSG = "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed."


# --- symbolic tensors ---------------------------------------------------------------------------

def test_symbolic_tensor_repr_str_name_op_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(3) + tf.constant(5)
    assert repr(c) == "<tf.Tensor 'add:0' shape=() dtype=int32>"
    assert str(c) == 'Tensor("add:0", shape=(), dtype=int32)'
    assert f"{c}" == 'Tensor("add:0", shape=(), dtype=int32)'
    assert c.name == "add:0"
    assert c.value_index == 0
    assert c.op.name == "add" and c.op.type == "AddV2"
    assert c.graph is g and c.op.graph is g
    assert c.shape == tf.TensorShape([]) and c.dtype == tf.int32


def test_symbolic_tensor_numpy_bool_len_raise():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        with pytest.raises(AttributeError, match="'SymbolicTensor' object has no attribute 'numpy'"):
            x.numpy()
        with pytest.raises(TypeError, match=BOOL_MSG.replace("`", ".").replace("(", r"\(")) as e:
            bool(x)
        assert isinstance(e.value, tf.errors.OperatorNotAllowedInGraphError)
        with pytest.raises(TypeError, match="len is not well defined for a symbolic Tensor"):
            len(x)
        with pytest.raises(TypeError, match=BOOL_MSG.replace("`", ".")):
            if x > 0:
                pass


def test_executing_eagerly_inside_graph():
    assert tf.executing_eagerly()
    with tf.Graph().as_default():
        assert not tf.executing_eagerly()
    assert tf.executing_eagerly()


def test_eager_tensor_has_no_name_op_graph():
    t = tf.constant(1)
    for attr in ("name", "op", "graph"):
        with pytest.raises(AttributeError, match=f"Tensor.{attr} is undefined when eager execution is enabled."):
            getattr(t, attr)


def test_tf1_graph_tensors_are_hashable_by_identity():
    with tf.Graph().as_default():
        a = tf.constant(1)
        b = tf.constant(1)
        d = {a: 1, b: 2}
        assert d[a] == 1 and d[b] == 2
        assert a == a and a != b and (a in [b, a])
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        hash(tf.constant(1))


# --- names and name scopes ----------------------------------------------------------------------

def test_unique_names_and_name_argument():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(1)
        a1, a2, a3 = x + x, x + x, x + x
        named = tf.add(x, x, name="total")
        named2 = tf.add(x, x, name="total")
        explicit = tf.constant(1, name="add_1")  # taken: gets a suffix of its own
        upper = tf.add(x, x, name="Add")  # names are unique ignoring case
    assert [t.op.name for t in (a1, a2, a3)] == ["add", "add_1", "add_2"]
    assert named.name == "total:0" and named2.name == "total_1:0"
    assert explicit.name == "add_1_1:0"
    assert upper.op.name == "Add_3"


def test_name_scopes_in_graph():
    g = tf.Graph()
    with g.as_default():
        with tf.name_scope("outer") as scope:
            assert scope == "outer/"
            t = tf.constant(1) + 2
            with tf.name_scope("inner") as inner:
                assert inner == "outer/inner/"
                k = tf.constant(1, name="k")
        with tf.name_scope("outer") as scope2:  # a second "outer" scope is made unique
            assert scope2 == "outer_1/"
            c = tf.constant(1)
        with tf.name_scope("outer/") as again:  # a trailing "/" re-enters the exact scope
            assert again == "outer/"
            m = tf.multiply(k, 2)
        u = tf.constant(2)
    assert t.name == "outer/add:0"
    assert t.op.inputs[0].name == "outer/Const:0"
    assert k.name == "outer/inner/k:0"
    assert c.name == "outer_1/Const:0"
    assert m.op.name == "outer/Mul"
    assert u.name == "Const:0"


def test_name_scope_inside_function():
    @tf.function
    def f(x):
        with tf.name_scope("layer"):
            return x * 2

    cf = f.get_concrete_function(tf.constant(1.0))
    names = [op.name for op in cf.graph.get_operations()]
    assert "layer/mul" in names
    assert f(tf.constant(2.0)).numpy() == 4.0


def test_name_scope_eager_is_a_noop():
    with tf.name_scope("outer") as s:
        assert s == "outer/"
        with tf.name_scope("x") as s2:
            assert s2 == "outer/x/"
        t = tf.constant(1) + 1
    assert t.numpy() == 2
    with pytest.raises(ValueError, match="name for name_scope must be a string"):
        tf.name_scope(3)


# --- Graph and Operation introspection ----------------------------------------------------------

def test_graph_get_operations_and_lookup():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(3, name="const")
        d = tf.multiply(c, c, name="sq")
    ops = g.get_operations()
    assert [op.name for op in ops] == ["const", "sq"]
    assert [op.type for op in ops] == ["Const", "Mul"]
    assert g.get_operation_by_name("sq") == d.op
    t = g.get_tensor_by_name("const:0")
    assert repr(t) == "<tf.Tensor 'const:0' shape=() dtype=int32>"
    assert repr(g.get_operation_by_name("const")) == "<tf.Operation 'const' type=Const>"
    with pytest.raises(KeyError, match="The name 'nope' refers to an Operation not in the graph."):
        g.get_operation_by_name("nope")
    with pytest.raises(KeyError, match="does not exist"):
        g.get_tensor_by_name("nope:0")
    with pytest.raises(KeyError, match="exists but only has 1 outputs"):
        g.get_tensor_by_name("const:1")
    with pytest.raises(ValueError, match="looks a like an Operation name, not a Tensor name"):
        g.get_tensor_by_name("const")
    with pytest.raises(TypeError):
        g.get_operation_by_name(3)


def test_operation_inputs_outputs_control_inputs():
    g = tf.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.float32, [2], name="a")
        b = tf.constant([1.0, 2.0], name="b")
        s = tf.add(a, b, name="s")
    op = s.op
    assert op.name == "s" and op.type == "AddV2"
    assert [t.name for t in op.inputs] == ["a:0", "b:0"]
    assert [t.name for t in op.outputs] == ["s:0"]
    assert op.control_inputs == []
    assert a.op.inputs == [] and a.op.type == "Placeholder"
    assert op.get_attr("T") == tf.float32 if "T" in op.node_def.attr else True


def test_as_graph_def_nodes():
    g = tf.Graph()
    with g.as_default():
        a = tf1.placeholder(tf.int32, name="a")
        tf.identity(a + a)
    nodes = g.as_graph_def().node
    assert [(n.name, n.op, list(n.input)) for n in nodes] == [
        ("a", "Placeholder", []), ("add", "AddV2", ["a", "a"]), ("Identity", "Identity", ["add"])]


def test_function_graph_listing_like_the_guide():
    @tf.function
    def double(a):
        return a + a

    graph = double.get_concrete_function(tf.constant("a")).graph
    listing = [f"{node.input} -> {node.name}" for node in graph.as_graph_def().node]
    assert listing == ["[] -> a", "['a', 'a'] -> add", "['add'] -> Identity"]


def test_no_op():
    assert tf.no_op() is None
    g = tf.Graph()
    with g.as_default():
        op = tf.no_op()
        init = tf1.global_variables_initializer()
    assert repr(op) == "<tf.Operation 'NoOp' type=NoOp>"
    assert op.outputs == [] and init.name == "init" and init.type == "NoOp"


# --- static shapes ------------------------------------------------------------------------------

def test_partially_known_shapes_through_inference():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        w = tf1.placeholder(tf.float32, [3, 4])
        y = tf.matmul(x, w)
        assert y.shape.as_list() == [None, 4]
        assert tf.reduce_sum(x, axis=1).shape.as_list() == [None]
        assert tf.reduce_sum(x, axis=0).shape.as_list() == [3]
        assert tf.reduce_sum(x).shape.as_list() == []
        assert tf.nn.relu(y).shape.as_list() == [None, 4]
        assert (x + tf1.placeholder(tf.float32, [None, 1])).shape.as_list() == [None, 3]
        assert (tf1.placeholder(tf.float32, [None, 1]) + tf.ones([3])).shape.as_list() == [None, 3]
        unknown = tf1.placeholder(tf.float32)
        assert unknown.shape.rank is None
        assert (unknown + x).shape.rank is None
        assert repr(unknown) == "<tf.Tensor 'Placeholder_3:0' shape=<unknown> dtype=float32>"


# --- graph-build errors (TF raises these while building, not when running) ----------------------

def test_broadcast_error_at_build_time_is_value_error():
    with tf.Graph().as_default():
        a = tf1.placeholder(tf.int32, [3])
        b = tf1.placeholder(tf.int32, [2])
        with pytest.raises(ValueError) as e:
            a + b
        assert str(e.value) == ("Dimensions must be equal, but are 3 and 2 for '{{node add}} = "
                                "AddV2[T=DT_INT32](Placeholder, Placeholder_1)' with input shapes: [3], [2].")
        # The failed node used its name, as in TF.
        assert (a + a).op.name == "add_1"
        c = tf1.placeholder(tf.int32, [None, 3])
        d = tf1.placeholder(tf.int32, [2, None, 4])
        with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 4 .* input shapes: "
                                             r"\[\?,3\], \[2,\?,4\]\."):
            c + d


def test_dtype_mismatch_at_build_time_is_type_error():
    with tf.Graph().as_default():
        i = tf.constant([1, 2, 3])
        f = tf.constant([1.0, 2.0, 3.0])
        msg = "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."
        with pytest.raises(TypeError, match=msg):
            tf.add(i, f)
        with pytest.raises(TypeError, match="Input 'b' of 'MatMul' Op has type int32 that does not match type "
                                            "float32 of argument 'a'."):
            tf.matmul(tf.ones([2, 3]), tf.ones([3, 3], tf.int32))
        with pytest.raises(TypeError, match=r"Tensors in list passed to 'inputs' of 'AddN' Op have types "
                                            r"\[int32, float32\] that don't all match."):
            tf.add_n([tf.constant(1), tf.constant(1.0)])
        with pytest.raises(TypeError, match=r"Tensors in list passed to 'values' of 'ConcatV2' Op have types "
                                            r"\[float32, int32\] that don't all match."):
            tf.concat([tf.ones([2, 3]), tf.ones([3, 3], tf.int32)], 0)
        with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType float32 not in list of "
                                            "allowed values: bool"):
            tf.logical_and(tf.constant(1.0), tf.constant(True))


def test_other_inference_errors_are_value_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 2 for '\{\{node MatMul\}\} "
                                             r"= MatMul\[.*\]\(.*\)' with input shapes: \[2,3\], \[2,3\]\."):
            tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
        with pytest.raises(ValueError, match="with input shapes: "):
            tf.reshape(tf.ones([2, 3]), [4])
        with pytest.raises(ValueError, match="with input shapes: "):
            tf.reduce_sum(tf.ones([2, 3]), axis=5)


def test_eager_errors_unchanged():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\]"):
        tf.constant([1, 2, 3]) + tf.constant([1, 2])


def test_build_error_in_function_trace_is_value_error():
    @tf.function
    def f(a, b):
        return a + b

    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 2 for '\{\{node add\}\} = "
                                         r"AddV2\[T=DT_FLOAT\]\(a, b\)' with input shapes: \[3\], \[2\]\."):
        f(tf.ones([3]), tf.ones([2]))


# --- bad input ----------------------------------------------------------------------------------

OUT_OF_SCOPE = "is out of scope and cannot be used here. Use return values, explicit Python locals or TensorFlow " \
               "collections to access it."


def test_leaked_tensor_used_in_another_function():
    leak = []

    @tf.function
    def f(x):
        y = x + 1
        leak.append(y)
        return y

    assert f(tf.constant(1)).numpy() == 2

    @tf.function
    def g(x):
        return x + leak[0]

    with pytest.raises(TypeError, match=OUT_OF_SCOPE) as e:
        g(tf.constant(1))
    msg = str(e.value)
    assert msg.startswith("<tf.Tensor 'add:0' shape=() dtype=int32> is out of scope")
    assert "because it was defined in FuncGraph(name=f, id=" in msg and msg.endswith("which is out of scope.")


def test_leaked_tensor_used_eagerly():
    leak = []

    @tf.function
    def f(x):
        leak.append(x * 2)
        return x

    f(tf.constant(1.0))
    with pytest.raises(TypeError, match=OUT_OF_SCOPE):
        leak[0] + 1
    with pytest.raises(TypeError, match=OUT_OF_SCOPE):
        tf.add(leak[0], 1.0)


def test_tf1_graph_tensor_used_eagerly_or_in_another_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(1, name="c")
    with pytest.raises(TypeError, match="<tf.Tensor 'c:0' shape=\\(\\) dtype=int32> " + OUT_OF_SCOPE):
        c + 1
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match=OUT_OF_SCOPE):
            c + 1


def test_concrete_function_wrong_dtype_feed():
    @tf.function
    def f(x):
        return x * 2

    cf = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    assert cf(tf.constant(3)).numpy() == 6
    with pytest.raises(tf.errors.InvalidArgumentError, match="was expected to be a int32 tensor but is a float tensor"):
        cf(tf.constant(1.0))


def _frames_in_this_file(exc):
    return [(fs.filename, fs.lineno) for fs in traceback.extract_tb(exc.__traceback__) if fs.filename == __file__]


def test_python_error_while_tracing_points_at_user_line():
    @tf.function
    def h(x):
        raise ValueError("boom")  # USER LINE

    with pytest.raises(ValueError, match="boom") as e:
        h(tf.constant(1))
    line = next(i for i, l in enumerate(open(__file__), 1) if "# USER LINE" in l and "raise" in l)
    assert (__file__, line) in _frames_in_this_file(e.value)


def test_build_error_while_tracing_points_at_user_line():
    @tf.function
    def k(a, b):
        return tf.matmul(a, b)  # BUILD ERROR LINE

    with pytest.raises(ValueError) as e:
        k(tf.ones([2, 3]), tf.ones([2, 3]))
    line = next(i for i, l in enumerate(open(__file__), 1) if "# BUILD ERROR LINE" in l and "return" in l)
    assert (__file__, line) in _frames_in_this_file(e.value)


def test_graph_building_does_not_leak_into_eager_after_error():
    g = tf.Graph()
    with pytest.raises(ValueError):
        with g.as_default():
            tf1.placeholder(tf.int32, [3]) + tf1.placeholder(tf.int32, [2])
    assert tf.executing_eagerly()
    np.testing.assert_array_equal((tf.constant([1, 2]) + 1).numpy(), [2, 3])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def _attrs_text(node):
    return {k: str(node.attr[k]).strip().replace("\n", " ") for k in node.attr}


def test_as_graph_def_attrs_and_operand_names_as_tf():
    # Texts from TF 2.21's GraphDef of the same functions.
    @tf.function
    def affine(x, w):
        return tf.nn.relu(tf.matmul(x, w) + 1.0)

    gd = affine.get_concrete_function(tf.TensorSpec([None, 2]), tf.TensorSpec([2, 3])).graph.as_graph_def()
    nodes = {n.name: n for n in gd.node}
    assert [n.name for n in gd.node] == ["x", "w", "MatMul", "add/y", "add", "Relu", "Identity"]
    assert _attrs_text(nodes["x"]) == {"dtype": "type: DT_FLOAT", "_user_specified_name": 's: "x"',
                                       "shape": "shape {   dim {     size: -1   }   dim {     size: 2   } }"}
    assert _attrs_text(nodes["MatMul"]) == {"T": "type: DT_FLOAT", "transpose_a": "b: false",
                                            "transpose_b": "b: false", "grad_a": "b: false", "grad_b": "b: false"}
    assert _attrs_text(nodes["add/y"])["value"] == "tensor {   dtype: DT_FLOAT   tensor_shape {   }   float_val: 1 }"
    assert nodes["x"].attr["dtype"].type == tf.float32.as_datatype_enum
    assert nodes["add"].input == ["MatMul", "add/y"]
    op = affine.get_concrete_function(tf.TensorSpec([None, 2]), tf.TensorSpec([2, 3])).graph.get_operation_by_name("add")
    assert op.get_attr("T") == tf.float32

    @tf.function
    def consts(s):
        return tf.strings.join([s, tf.constant("hi")]), tf.cast(tf.constant([1, 2, 3], tf.int64), tf.float32), \
            2 * tf.constant([[1.5, 2.0]])

    nodes = {n.name: n for n in consts.get_concrete_function(tf.TensorSpec([], tf.string)).graph.as_graph_def().node}
    assert _attrs_text(nodes["Const_1"])["value"] == (
        'tensor {   dtype: DT_INT64   tensor_shape {     dim {       size: 3     }   }   tensor_content: '
        '"\\001\\000\\000\\000\\000\\000\\000\\000\\002\\000\\000\\000\\000\\000\\000\\000\\003\\000\\000\\000\\000'
        '\\000\\000\\000" }')
    assert _attrs_text(nodes["Const_2"])["value"] == (
        'tensor {   dtype: DT_FLOAT   tensor_shape {     dim {       size: 1     }     dim {       size: 2     }   }   '
        'tensor_content: "\\000\\000\\300?\\000\\000\\000@" }')
    assert _attrs_text(nodes["Cast"]) == {"DstT": "type: DT_FLOAT", "SrcT": "type: DT_INT64", "Truncate": "b: false"}
    assert "mul/x" in nodes and nodes["mul"].input == ["mul/x", "Const_2"]  # a reflected operand is x


def test_cond_outputs_pass_through_identities_in_its_scope():
    @tf.function
    def relu_like(x):
        if x > 0:
            return x * 2
        return x - 1

    gd = relu_like.get_concrete_function(tf.TensorSpec([], tf.float32)).graph.as_graph_def()
    assert [(n.name, n.op, list(n.input)) for n in gd.node] == [
        ("x", "Placeholder", []), ("Greater/y", "Const", []), ("Greater", "Greater", ["x", "Greater/y"]),
        ("cond", "StatelessIf", ["Greater", "x"]), ("cond/Identity", "Identity", ["cond"]),
        ("cond/Identity_1", "Identity", ["cond:1"]), ("Identity", "Identity", ["cond/Identity_1"])]
    attrs = _attrs_text(gd.node[3])
    assert attrs["Tout"] == "list {   type: DT_BOOL   type: DT_FLOAT }" and attrs["_lower_using_switch_merge"] == "b: true"
    assert relu_like(tf.constant(3.0)).numpy() == 6.0 and relu_like(tf.constant(-3.0)).numpy() == -4.0
