"""Numerical checks (float64 central differences) of the array/slicing gradients, eager and graph."""
import numpy as np
import pytest

import eagerflow as tf
from gradient_checker import call_gradient, check_gradients, check_graph

_rng = np.random.default_rng(42)


def f(*shape):
    return _rng.standard_normal(shape)


def i32(v):
    return np.array(v, np.int32)


def i64(v):
    return np.array(v, np.int64)


# (op, inputs, attrs[, wrt]): several shapes, negative axes, int64 index inputs, zero-size dims.
CASES = [
    ("Reshape", [f(2, 3), i32([3, 2])], None),
    ("Reshape", [f(2, 3, 2), i64([-1])], None),
    ("Reshape", [f(0, 3), i32([3, 0])], None),
    ("Reshape", [f(), i32([1, 1])], None),
    ("ExpandDims", [f(2, 3), i32(-1)], None),
    ("ExpandDims", [f(), i32(0)], None),
    ("Squeeze", [f(2, 1, 3)], {"squeeze_dims": [1]}),
    ("Squeeze", [f(1, 3, 1)], None),
    ("Squeeze", [f(1, 3, 1)], {"squeeze_dims": [-1]}),
    ("Transpose", [f(2, 3, 4), i32([2, 0, 1])], None),
    ("Transpose", [f(2, 3), i64([1, 0])], None),
    ("Transpose", [f(0, 3), i32([1, 0])], None),
    ("ConcatV2", [f(2, 3), f(2, 1), i32(-1)], None),
    ("ConcatV2", [f(2, 3), f(1, 3), f(3, 3), i64(0)], None),
    ("ConcatV2", [f(2, 3), f(0, 3), i32(0)], None),
    ("ConcatV2", [f(4), i32(0)], None),
    ("Pack", [f(2, 3), f(2, 3)], {"axis": 1, "N": 2}),
    ("Pack", [f(2), f(2), f(2)], {"axis": -1}),
    ("Pack", [f(), f()], None),
    ("Unpack", [f(3, 2)], {"num": 2, "axis": -1}),
    ("Unpack", [f(3, 2, 2)], {"num": 3}),
    ("Split", [i32(1), f(2, 4)], {"num_split": 2}),
    ("Split", [i32(-1), f(2, 3)], {"num_split": 3}),
    ("SplitV", [f(5, 2), i32([2, 3]), i32(0)], {"num_split": 2}),
    ("SplitV", [f(2, 5), i64([1, -1, 0]), i32(-1)], {"num_split": 3}),
    ("Slice", [f(4, 5), i32([1, 2]), i32([2, -1])], None),
    ("Slice", [f(4, 5), i64([0, 0]), i64([4, 0])], None),
    ("Slice", [f(3), i32([1]), i32([1])], None),
    ("StridedSlice", [f(5, 6), i32([4, 1]), i32([0, 5]), i32([-2, 2])], None),
    ("StridedSlice", [f(4, 3), i32([1]), i32([3]), i32([1])], None),
    ("StridedSlice", [f(4, 3, 2), i32([1, 0]), i32([2, 0]), i32([1, 1])], {"shrink_axis_mask": 1, "ellipsis_mask": 2}),
    ("StridedSlice", [f(4, 3), i32([0, 0, -1]), i32([0, 3, 0]), i32([1, 1, -1])],
     {"new_axis_mask": 1, "begin_mask": 2, "end_mask": 6}),
    ("StridedSlice", [f(4, 3), i64([3]), i64([1]), i64([1])], None),  # empty slice
    ("GatherV2", [f(4, 3), i32([[0, 2], [2, 2]]), i32(0)], None),
    ("GatherV2", [f(2, 4, 3), i32([0, 3, 3]), i32(1)], None),
    ("GatherV2", [f(2, 4, 3), i64([2, 0]), i32(-1)], None),
    ("GatherV2", [f(2, 4, 3), i32(1), i32(1)], None),  # scalar index drops the axis
    ("GatherV2", [f(2, 4, 3), i32([[0, 3], [1, 1]]), i32(1)], {"batch_dims": 1}),
    ("GatherV2", [f(2, 3, 4, 2), i32([[1, 0, 3], [2, 2, 2]]), i32(2)], {"batch_dims": 1}),
    ("GatherV2", [f(2, 3, 4), i32([[[0], [2], [1]], [[1], [1], [0]]]), i32(2)], {"batch_dims": -1}),
    ("GatherV2", [f(4, 3), np.zeros((0,), np.int32), i32(0)], None),
    ("GatherV2", [f(2, 3), i32([2, 0]), i32(1)], {"batch_dims": 1}),  # one index per batch entry
    ("GatherNd", [f(3, 4), i32([[0, 1], [2, 3], [0, 1]])], None),
    ("GatherNd", [f(3, 4, 2), i64([[2], [0], [2]])], None),
    ("GatherNd", [f(3, 4), np.zeros((0, 2), np.int32)], None),
    ("Pad", [f(2, 3), i32([[1, 0], [2, 1]])], None),
    ("Pad", [f(0, 2), i64([[1, 1], [0, 0]])], None),
    ("PadV2", [f(2, 3), i32([[1, 0], [2, 1]]), np.float64(0.5)], None, [0]),
    ("MirrorPad", [f(3, 4), i32([[1, 2], [2, 1]])], {"mode": "REFLECT"}),
    ("MirrorPad", [f(3, 4), i32([[1, 2], [2, 3]])], {"mode": "SYMMETRIC"}),
    ("MirrorPad", [f(1, 2), i32([[0, 0], [0, 0]])], {"mode": "REFLECT"}),
    ("Tile", [f(2, 3), i32([2, 3])], None),
    ("Tile", [f(2, 1, 2), i64([1, 3, 0])], None),
    ("Tile", [f(), np.zeros((0,), np.int32)], None),
    ("BroadcastTo", [f(3, 1), i32([2, 3, 4])], None),
    ("BroadcastTo", [f(3), i32([2, 3])], None),
    ("BroadcastTo", [f(), i32([2])], None),
    ("BroadcastTo", [f(2, 3), i32([2, 3])], None),
    ("ReverseV2", [f(2, 3), i32([1])], None),
    ("ReverseV2", [f(2, 3, 2), i64([0, -1])], None),
    ("Fill", [i32([2, 3]), np.float64(2.0)], None),
    ("Fill", [i32([0]), np.float64(2.0)], None),
    ("SelectV2", [np.array([True, False, True]), f(2, 3), f(1)], None),
    ("SelectV2", [np.array([[True], [False]]), f(3), f(2, 3)], None),
    ("SelectV2", [np.array(True), f(2), f(2)], None),
    ("Cumsum", [f(2, 3), i32(1)], {"exclusive": True}),
    ("Cumsum", [f(2, 3), i32(-2)], {"reverse": True}),
    ("Cumsum", [f(4), i64(0)], {"exclusive": True, "reverse": True}),
    ("UnsortedSegmentSum", [f(4, 2), i32([0, -1, 2, 0]), i32(3)], None),
    ("UnsortedSegmentSum", [f(2, 3), i64([[1, 1, 0], [0, 2, 1]]), i64(3)], None),
    ("ScatterNd", [i32([[1], [0], [1]]), f(3, 2), i32([3, 2])], None),
    ("ScatterNd", [i64([[1, 1], [0, 2]]), f(2), i64([2, 3])], None),
    ("StridedSliceGrad", [i32([5]), i32([4]), i32([0]), i32([-2]), f(2)], None),
    ("StridedSliceGrad", [i32([3, 4]), i32([1, 0]), i32([0, 0]), i32([1, 1]), f(4)], {"shrink_axis_mask": 1,
                                                                                       "end_mask": 2}),
    ("MirrorPadGrad", [f(6, 5), i32([[1, 2], [1, 1]])], {"mode": "REFLECT"}),
    ("MirrorPadGrad", [f(6, 5), i32([[3, 0], [1, 1]])], {"mode": "SYMMETRIC"}),
    ("CheckNumerics", [f(2, 3)], {"message": "x"}),
]


def _ids():
    seen = {}
    out = []
    for c in CASES:
        seen[c[0]] = seen.get(c[0], 0) + 1
        out.append("%s-%d" % (c[0], seen[c[0]]))
    return out


@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_numerical_gradient(case):
    op, inputs, attrs = case[:3]
    check_gradients(op, inputs, attrs, wrt=case[3] if len(case) > 3 else None)


@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_graph_gradient_matches_eager(case):
    op, inputs, attrs = case[:3]
    check_graph(op, inputs, attrs, wrt=case[3] if len(case) > 3 else None)


_DYNAMIC = [(c, i) for c, i in zip(CASES, _ids()) if c[0] in ("ConcatV2", "Slice", "Tile", "Pad", "BroadcastTo",
                                                                 "SelectV2", "GatherV2", "Transpose", "StridedSlice")]


@pytest.mark.parametrize("case", [c for c, _ in _DYNAMIC], ids=[i for _, i in _DYNAMIC])
def test_graph_gradient_with_dynamic_index_inputs(case):
    """Index inputs fed as placeholders too (their values unknown while building)."""
    op, inputs, attrs = case[:3]
    idx = [i for i, x in enumerate(inputs) if np.asarray(x).dtype.kind == "i"]
    if op == "GatherV2":
        idx = [1]  # the axis must stay constant
    wrt = case[3] if len(case) > 3 else [i for i, x in enumerate(inputs) if np.asarray(x).dtype.kind == "f"]
    # check_graph feeds every input listed in wrt through a placeholder; compare only float ones.
    _check_graph_fed(op, inputs, attrs, wrt, idx)


def _check_graph_fed(op_type, inputs, attrs, wrt, fed_int):
    from gradient_checker import OpView, _execute, get_gradient_function, run_op
    inputs = [tf.constant(x) for x in inputs]
    outs = run_op(op_type, inputs, attrs)
    ups = [np.ones(tuple(y.shape), y.numpy().dtype) for y in outs]
    eager = call_gradient(op_type, inputs, attrs, ups)
    g = tf.Graph()
    with g.as_default():
        feeds, sym = {}, []
        for i, x in enumerate(inputs):
            if i in wrt or i in fed_int:
                # Index inputs keep their static shape (their values are what is unknown).
                p = tf.compat.v1.placeholder(x.dtype, list(x.shape) if i in fed_int else [None] * len(x.shape))
                feeds[p] = x.numpy()
                sym.append(p)
            else:
                sym.append(x)
        souts = list(_execute.execute(op_type, sym, attrs))
        res = get_gradient_function(op_type)(OpView(op_type, sym, souts, attrs), *[tf.constant(u) for u in ups])
        res = [tf.convert_to_tensor(r) if isinstance(r, tf.IndexedSlices) else r for r in res]
        fetch = [res[i] for i in wrt]
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run(fetch, feed_dict=feeds)
    for i, v in zip(wrt, got):
        np.testing.assert_allclose(v, eager[i].numpy())


def test_float32_gradients_keep_dtype():
    x = f(3, 4).astype(np.float32)
    for op, ins, attrs in [("Transpose", [x, i32([1, 0])], None), ("GatherV2", [x, i32([0, 0]), i32(1)], None),
                           ("Tile", [x, i32([2, 1])], None), ("StridedSlice", [x, i32([1]), i32([3]), i32([1])], None),
                           ("MirrorPad", [x, i32([[1, 1], [0, 2]])], {"mode": "REFLECT"})]:
        y = call_gradient(op, ins, attrs, [np.ones(tf.constant(_out_shape(op, ins, attrs)).numpy(), np.float32)])[0]
        assert y.dtype == tf.float32 and tuple(y.shape) == (3, 4)


def _out_shape(op, ins, attrs):
    from gradient_checker import run_op
    return list(run_op(op, ins, attrs)[0].shape)


def test_gather_gradient_is_dense_and_sums_duplicates():
    # TF returns IndexedSlices here; eagerflow returns the dense sum (same values once densified).
    params = np.zeros((4, 2))
    g = call_gradient("GatherV2", [params, i32([3, 0, 3, 3]), i32(0)], None, [np.ones((4, 2))])[0]
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.numpy(), [[1, 1], [0, 0], [0, 0], [3, 3]])


def test_multi_output_gradients_accept_none():
    g = call_gradient("Unpack", [f(3, 2)], {"num": 3}, [None, np.ones(2), None])[0]
    np.testing.assert_array_equal(g.numpy(), [[0, 0], [1, 1], [0, 0]])
    g = call_gradient("Split", [i32(0), f(4)], {"num_split": 2}, [None, np.full(2, 2.0)])[1]
    np.testing.assert_array_equal(g.numpy(), [0, 0, 2, 2])
    g = call_gradient("SplitV", [f(5), i32([1, 4]), i32(0)], {"num_split": 2}, [np.ones(1), None])[0]
    np.testing.assert_array_equal(g.numpy(), [1, 0, 0, 0, 0])


def test_select_and_padv2_gradients_match_tf():
    # TF: the condition and constant_values get None.
    grads = call_gradient("SelectV2", [np.array([True, False, True]), np.ones(3), np.float64(0.0)], None, [np.ones(3)])
    assert grads[0] is None
    np.testing.assert_array_equal(grads[1].numpy(), [1, 0, 1])
    assert float(grads[2].numpy()) == 1.0
    grads = call_gradient("PadV2", [np.ones(2), i32([[1, 1]]), np.float64(2.0)], None, [np.ones(4)])
    assert grads[1] is None and grads[2] is None


def test_check_numerics_gradient_checks_the_gradient():
    g = call_gradient("CheckNumerics", [np.ones(2)], {"message": "in x"}, [np.ones(2)])[0]
    np.testing.assert_array_equal(g.numpy(), [1, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="detected in gradient. in x"):
        call_gradient("CheckNumerics", [np.ones(2)], {"message": "in x"}, [np.array([1.0, np.nan])])


def test_non_differentiable_array_ops():
    from eagerflow.framework.gradient_registry import get_gradient_function
    for op in ("Shape", "Size", "Rank", "ArgMax", "ArgMin", "OneHot", "ZerosLike", "OnesLike", "Where", "Range",
               "RandomUniform", "RandomStandardNormal", "BitwiseAnd", "LeftShift", "InvertPermutation"):
        assert get_gradient_function(op) is None, op
