"""A Python value an op wrapper converts while a graph is built is a Const named after the op's
node and input arg ("Reshape/shape"), as TF's op wrappers name it; tf.constant and
tf.convert_to_tensor stay "Const". Expected node lists are what TF 2.21 printed."""
import pytest

import eagerflow as tf

M = tf.TensorSpec([2, 3], tf.float32)


def _nodes(fn, spec=M):
    gd = tf.function(fn).get_concrete_function(spec).graph.as_graph_def()
    return [(n.name, n.op) for n in gd.node]


CASES = [
    (lambda x: tf.reshape(x, [3, 2]),
     [("x", "Placeholder"), ("Reshape/shape", "Const"), ("Reshape", "Reshape"), ("Identity", "Identity")]),
    (lambda x: tf.transpose(x, [1, 0]),
     [("x", "Placeholder"), ("transpose/perm", "Const"), ("transpose", "Transpose"), ("Identity", "Identity")]),
    (lambda x: tf.transpose(x),
     [("x", "Placeholder"), ("transpose/perm", "Const"), ("transpose", "Transpose"), ("Identity", "Identity")]),
    (lambda x: tf.reduce_sum(x, 1),
     [("x", "Placeholder"), ("Sum/reduction_indices", "Const"), ("Sum", "Sum"), ("Identity", "Identity")]),
    (lambda x: tf.reduce_sum(x),
     [("x", "Placeholder"), ("Const", "Const"), ("Sum", "Sum"), ("Identity", "Identity")]),
    (lambda x: tf.reduce_mean(x, axis=[0, 1], keepdims=True),
     [("x", "Placeholder"), ("Mean/reduction_indices", "Const"), ("Mean", "Mean"), ("Identity", "Identity")]),
    (lambda x: tf.fill([2, 3], 1.0) + x,
     [("x", "Placeholder"), ("Fill/dims", "Const"), ("Fill/value", "Const"), ("Fill", "Fill"), ("add", "AddV2"),
      ("Identity", "Identity")]),
    (lambda x: tf.concat([x, [[1., 2., 3.]]], 0),
     [("x", "Placeholder"), ("concat/values_1", "Const"), ("concat/axis", "Const"), ("concat", "ConcatV2"),
      ("Identity", "Identity")]),
    (lambda x: tf.expand_dims(x, 0),
     [("x", "Placeholder"), ("ExpandDims/dim", "Const"), ("ExpandDims", "ExpandDims"), ("Identity", "Identity")]),
    (lambda x: tf.tile(x, [2, 1]),
     [("x", "Placeholder"), ("Tile/multiples", "Const"), ("Tile", "Tile"), ("Identity", "Identity")]),
    (lambda x: tf.pad(x, [[1, 1], [0, 0]]),
     [("x", "Placeholder"), ("Pad/paddings", "Const"), ("Pad", "Pad"), ("Identity", "Identity")]),
    (lambda x: tf.add(x, 1.0),
     [("x", "Placeholder"), ("Add/y", "Const"), ("Add", "AddV2"), ("Identity", "Identity")]),
    (lambda x: tf.maximum(x, 0.),
     [("x", "Placeholder"), ("Maximum/y", "Const"), ("Maximum", "Maximum"), ("Identity", "Identity")]),
    (lambda x: tf.argmax(x, 1),
     [("x", "Placeholder"), ("ArgMax/dimension", "Const"), ("ArgMax", "ArgMax"), ("Identity", "Identity")]),
    (lambda x: tf.slice(x, [0, 0], [1, 2]),
     [("x", "Placeholder"), ("Slice/begin", "Const"), ("Slice/size", "Const"), ("Slice", "Slice"),
      ("Identity", "Identity")]),
    (lambda x: tf.cast(x, tf.int32) + 1,
     [("x", "Placeholder"), ("Cast", "Cast"), ("add/y", "Const"), ("add", "AddV2"), ("Identity", "Identity")]),
    (lambda x: x * 2.0 + tf.constant(1.0),
     [("x", "Placeholder"), ("mul/y", "Const"), ("mul", "Mul"), ("Const", "Const"), ("add", "AddV2"),
      ("Identity", "Identity")]),
    (lambda x: tf.reshape(x, tf.constant([3, 2])),
     [("x", "Placeholder"), ("Const", "Const"), ("Reshape", "Reshape"), ("Identity", "Identity")]),
    (lambda x: tf.reshape(x, tf.convert_to_tensor([3, 2])),
     [("x", "Placeholder"), ("Const", "Const"), ("Reshape", "Reshape"), ("Identity", "Identity")]),
    (lambda x: tf.squeeze(tf.reshape(x, [1, 6]), 0),
     [("x", "Placeholder"), ("Reshape/shape", "Const"), ("Reshape", "Reshape"), ("Squeeze", "Squeeze"),
      ("Identity", "Identity")]),
]


SLICE = [("strided_slice/stack", "Const"), ("strided_slice/stack_1", "Const"), ("strided_slice/stack_2", "Const"),
         ("strided_slice", "StridedSlice")]
CASES += [
    (lambda x: x[0], [("x", "Placeholder")] + SLICE + [("Identity", "Identity")]),
    (lambda x: x[0] + x[1], [("x", "Placeholder")] + SLICE + [(n.replace("slice", "slice_1"), o) for n, o in SLICE]
     + [("add", "AddV2"), ("Identity", "Identity")]),
]


def test_slice_with_tensor_index_packs_in_its_scope():
    def fn(x, i):
        return x[:, i]
    gd = tf.function(fn).get_concrete_function(M, tf.TensorSpec([], tf.int32)).graph.as_graph_def()
    assert [(n.name, n.op) for n in gd.node] == [
        ("x", "Placeholder"), ("i", "Placeholder"), ("add/y", "Const"), ("add", "AddV2"),
        ("strided_slice/stack/0", "Const"), ("strided_slice/stack", "Pack"), ("strided_slice/stack_1/0", "Const"),
        ("strided_slice/stack_1", "Pack"), ("strided_slice/stack_2", "Const"), ("strided_slice", "StridedSlice"),
        ("Identity", "Identity")]


def test_slices_keep_static_shapes_in_graphs():
    seen = []

    @tf.function
    def fn(x):
        seen.extend([x[1:3, ::2].shape.as_list(), x[:, ::2].shape.as_list(), x[None, :, 1:].shape.as_list(),
                     x[-1, -3:].shape.as_list()])
        return x
    fn.get_concrete_function(tf.TensorSpec([None, 4]))
    assert seen == [[None, 2], [None, 2], [1, None, 3], [3]]  # as TF 2.21
    assert not fn.get_concrete_function(tf.TensorSpec([None, 4])).captured_inputs


@pytest.mark.parametrize("fn,expected", CASES)
def test_converted_argument_named_after_op_input(fn, expected):
    assert _nodes(fn) == expected


def test_user_name_is_the_scope_of_its_arguments():
    def fn(x):
        return tf.reshape(x, [6], name="flat")
    assert _nodes(fn)[1:3] == [("flat/shape", "Const"), ("flat", "Reshape")]


def test_name_scope_prefixes_converted_argument():
    def fn(x):
        with tf.name_scope("outer"):
            return tf.reduce_sum(x, 0)
    assert _nodes(fn)[1:3] == [("outer/Sum/reduction_indices", "Const"), ("outer/Sum", "Sum")]


def test_unused_conversion_and_name_read_first_are_const():
    def fn(x):
        c = tf.convert_to_tensor([1.0, 2.0, 3.0])
        d = tf.convert_to_tensor(2.0)
        return x + c, d
    names = [n for n, _ in _nodes(fn)]
    assert names[:4] == ["x", "Const", "Const_1", "add"]


def test_converted_values_compute_the_same():
    @tf.function
    def fn(x):
        return tf.reduce_sum(tf.transpose(tf.reshape(x, [3, 2]), [1, 0]), 1)
    assert fn(tf.constant([1., 2., 3., 4., 5., 6.])).numpy().tolist() == [9.0, 12.0]


def test_tf1_graph_names():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3])
        tf.reshape(x, [3, 2])
        tf.reduce_max(x, axis=0)
    assert [op.name for op in g.get_operations()] == ["Placeholder", "Reshape/shape", "Reshape",
                                                      "Max/reduction_indices", "Max"]
