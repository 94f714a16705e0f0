"""tf.RaggedTensor: construction, printing (TF 2.21's text), conversion, indexing, the dispatch of
elementwise ops and reductions, and ragged arguments of tf.function. Expected values are NumPy's
per row, or what TF printed."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.framework import dispatch

ROWS = [[1.5, -2.0], [], [3.25, 4.0, -0.5]]


def rt():
    return tf.ragged.constant(ROWS)


def per_row(fn, rows=ROWS, empty=None):
    return [fn(np.array(r, np.float32)) if r else empty for r in rows]


# ---- construction and printing ----

def test_printing_matches_tf():
    assert repr(tf.ragged.constant([[1, 2], [3]])) == "<tf.RaggedTensor [[1, 2], [3]]>"
    assert str(tf.ragged.constant([[1, 2], [3]])) == "<tf.RaggedTensor [[1, 2], [3]]>"
    assert repr(tf.ragged.constant([[[1., 2.], [3.]], [[4.]]])) == "<tf.RaggedTensor [[[1.0, 2.0], [3.0]], [[4.0]]]>"
    assert repr(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)) == \
        "<tf.RaggedTensor [[[1, 2],\n  [3, 4]], [[5, 6]]]>"
    assert repr(tf.ragged.constant([["a", "b"], ["c"]])) == "<tf.RaggedTensor [[b'a', b'b'], [b'c']]>"
    assert repr(tf.math.exp(tf.ragged.constant([[1., 2.], [3.]]))) == \
        "<tf.RaggedTensor [[2.7182817, 7.389056], [20.085537]]>"
    assert repr(tf.ragged.constant([[i] * 3 for i in range(3)])) == \
        "<tf.RaggedTensor [[0, 0, 0],\n [1, 1, 1],\n [2, 2, 2]]>"
    assert repr(tf.ragged.constant([[], []])) == "<tf.RaggedTensor [[], []]>"


def test_properties():
    x = tf.ragged.constant([[1, 2], [3]])
    assert x.shape.as_list() == [2, None] and x.ragged_rank == 1 and x.dtype == tf.int32
    assert x.row_splits.dtype == tf.int64 and x.row_splits.numpy().tolist() == [0, 2, 3]
    assert x.row_lengths().numpy().tolist() == [2, 1]
    assert x.value_rowids().numpy().tolist() == [0, 0, 1]
    assert int(x.nrows()) == 2 and x.nrows().dtype == tf.int64
    assert x.values.numpy().tolist() == [1, 2, 3] and x.flat_values.numpy().tolist() == [1, 2, 3]
    assert x.bounding_shape().numpy().tolist() == [2, 2]
    assert x.to_list() == [[1, 2], [3]]
    assert repr(x._type_spec) == "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    nested = tf.ragged.constant([[[1., 2.], [3.]], [[4.]]])
    assert nested.shape.as_list() == [2, None, None] and nested.ragged_rank == 2
    assert [s.numpy().tolist() for s in nested.nested_row_splits] == [[0, 2, 3], [0, 2, 3, 4]]
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert uniform.shape.as_list() == [2, None, 2] and uniform.values.shape.as_list() == [3, 2]


def test_numpy_as_tf():
    a = tf.ragged.constant([[1, 2], [3]]).numpy()
    assert a.dtype == object and [r.tolist() for r in a] == [[1, 2], [3]]
    b = tf.ragged.constant([[1, 2], [3, 4]]).numpy()
    assert b.dtype == np.int32 and b.tolist() == [[1, 2], [3, 4]]


def test_constant_arguments():
    assert tf.ragged.constant([[1, 2], [3]], dtype=tf.float64).dtype == tf.float64
    dense = tf.ragged.constant([1, 2])  # no ragged dimension: a tensor, as in TF
    assert isinstance(dense, tf.Tensor) and dense.numpy().tolist() == [1, 2]
    x = tf.ragged.constant([[[1, 2]], []], inner_shape=(2,))
    assert x.shape.as_list() == [2, None, 2] and x.to_list() == [[[1, 2]], []]
    with pytest.raises(ValueError, match="all scalar values must have the same nesting depth"):
        tf.ragged.constant([[1, 2], [[3]]])


def test_factories():
    assert tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 0, 1]).to_list() == [[1, 2], [], [3]]
    assert tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 3]).to_list() == [[1, 2], [3]]
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3, 4], [0, 0, 2, 2], nrows=4).to_list() == \
        [[1, 2], [], [3, 4], []]
    assert tf.RaggedTensor.from_row_starts([1, 2, 3], [0, 2]).to_list() == [[1, 2], [3]]
    assert tf.RaggedTensor.from_row_limits([1, 2, 3], [2, 3]).to_list() == [[1, 2], [3]]
    assert tf.RaggedTensor.from_nested_row_lengths([1, 2, 3], [[2, 1], [1, 0, 2]]).to_list() == [[[1], []], [[2, 3]]]
    assert tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0).to_list() == [[1], [2, 3]]
    assert tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], lengths=[1, 3]).to_list() == [[1], [2, 3, 0]]
    assert tf.RaggedTensor.from_tensor([[1, 0], [2, 3]]).to_list() == [[1, 0], [2, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="from_row_splits do not form a valid RaggedTensor"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="RaggedTensor:zero"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 3])
    with pytest.raises(ValueError, match="constructor is private"):
        tf.RaggedTensor(tf.constant([1]), tf.constant([0, 1], tf.int64))


def test_range():
    assert tf.ragged.range([3, 1]).to_list() == [[0, 1, 2], [0]]
    assert tf.ragged.range([1, 2], [4, 3], 2).to_list() == [[1, 3], [2]]
    assert tf.ragged.range(3).to_list() == [[0, 1, 2]]
    assert tf.ragged.range([5], [0], -2).to_list() == [[5, 3, 1]]
    assert np.allclose(tf.ragged.range([0.], [1.], 0.25).to_list(), [[0, 0.25, 0.5, 0.75]])


@pytest.mark.parametrize("rows", [ROWS, [[1.0], [2.0, 3.0]], [[], []], [[5.0, 6.0, 7.0]]])
def test_to_tensor_matches_numpy_padding(rows):
    x = tf.ragged.constant(rows, dtype=tf.float32)
    width = max([len(r) for r in rows] + [0])
    want = np.full((len(rows), width), 9.0, np.float32)
    for i, r in enumerate(rows):
        want[i, :len(r)] = r
    np.testing.assert_array_equal(x.to_tensor(default_value=9.0).numpy(), want)
    back = tf.RaggedTensor.from_tensor(want, lengths=[len(r) for r in rows])
    assert back.to_list() == [list(map(float, r)) for r in rows]


def test_to_tensor_shape_pads_and_truncates():
    x = tf.ragged.constant([[1, 2], [3]])
    assert x.to_tensor(default_value=-1, shape=[3, 3]).numpy().tolist() == [[1, 2, -1], [3, -1, -1], [-1, -1, -1]]
    assert x.to_tensor(shape=[2, 1]).numpy().tolist() == [[1], [3]]
    nested = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert nested.to_tensor().numpy().tolist() == [[[1, 0], [2, 3]], [[4, 0], [0, 0]]]
    assert nested.to_tensor(shape=[1, 2, 1]).numpy().tolist() == [[[1], [2]]]
    assert tf.ragged.constant([["a"], []]).to_tensor().numpy().tolist() == [[b"a"], [b""]]
    uniform = tf.ragged.constant([[[1, 2]], []], inner_shape=(2,))
    assert uniform.to_tensor(default_value=[7, 8]).numpy().tolist() == [[[1, 2]], [[7, 8]]]


# ---- indexing ----

def test_indexing():
    x = tf.ragged.constant([[1, 2], [], [3]])
    assert x[0].numpy().tolist() == [1, 2] and x[-1].numpy().tolist() == [3]
    assert x[1].shape.as_list() == [0]
    assert x[1:].to_list() == [[], [3]] and x[::2].to_list() == [[1, 2], [3]]
    assert x[:, 1:].to_list() == [[2], [], []] and x[:, -1:].to_list() == [[2], [], [3]]
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension."):
        x[:, 0]
    with pytest.raises(IndexError, match="Row key 5 out of bounds"):
        x[5]
    nested = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert nested[0].to_list() == [[1], [2, 3]]
    uniform = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert uniform[:, :, 0].to_list() == [[1, 3], [5]]


# ---- dispatch: elementwise ops and reductions ----

def _float_apis():
    for api in dispatch.unary_elementwise_apis():
        try:
            dense = api(tf.constant([0.5, 0.25], tf.float32))
        except (TypeError, ValueError, tf.errors.OpError):
            continue  # the op takes no float32 (or needs more arguments)
        yield api, dense


@pytest.mark.parametrize("api", [a for a, _ in _float_apis()], ids=lambda a: a.__name__)
def test_every_unary_elementwise_api_maps_the_flat_values(api):
    x = tf.ragged.constant([[0.5], [], [0.25, 0.75]])
    got = api(x)
    assert isinstance(got, tf.RaggedTensor) and got.row_splits is x.row_splits
    np.testing.assert_array_equal(got.flat_values.numpy(), api(x.flat_values).numpy())


@pytest.mark.parametrize("api", dispatch.binary_elementwise_apis(), ids=lambda a: a.__name__)
def test_every_binary_elementwise_api_dispatches(api):
    x = tf.ragged.constant([[0.5], [], [0.25, 0.75]])
    try:
        want = api(x.flat_values, x.flat_values)
    except (TypeError, ValueError, tf.errors.OpError):
        pytest.skip("no float32 kernel")
    got = api(x, x)
    assert isinstance(got, tf.RaggedTensor)
    np.testing.assert_array_equal(got.flat_values.numpy(), want.numpy())


def test_operators_and_broadcasting():
    x = tf.ragged.constant([[1, 2], [], [3]])
    assert (x + 1).to_list() == [[2, 3], [], [4]] and (1 + x).to_list() == [[2, 3], [], [4]]
    assert (x * x).to_list() == [[1, 4], [], [9]] and (-x).to_list() == [[-1, -2], [], [-3]]
    assert (tf.constant(10) - x).to_list() == [[9, 8], [], [7]]
    assert (x + tf.constant([[1], [2], [3]])).to_list() == [[2, 3], [], [6]]
    assert (x + tf.constant([10])).to_list() == [[11, 12], [], [13]]
    assert (x == 1).to_list() == [[True, False], [], [False]] and (x > 1).to_list() == [[False, True], [], [True]]
    assert tf.cast(x, tf.float32).dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError, match="identical ragged splits"):
        x + tf.ragged.constant([[1, 2], [3], []])
    assert tf.ragged.map_flat_values(tf.ones_like, x).to_list() == [[1, 1], [], [1]]


@pytest.mark.parametrize("name, fn, empty", [
    ("reduce_sum", np.sum, 0.0), ("reduce_max", np.max, np.finfo(np.float32).min),
    ("reduce_min", np.min, np.finfo(np.float32).max), ("reduce_prod", np.prod, 1.0), ("reduce_mean", np.mean, np.nan)])
def test_row_reductions_match_numpy(name, fn, empty):
    got = getattr(tf, name)(rt(), axis=1).numpy()
    np.testing.assert_allclose(got, np.array(per_row(fn, empty=empty), np.float32), rtol=1e-6)
    flat = np.concatenate([np.array(r, np.float32) for r in ROWS])
    np.testing.assert_allclose(getattr(tf, name)(rt()).numpy(), fn(flat), rtol=1e-6)


def test_reductions_as_tf():
    x = tf.ragged.constant([[1, 2], [], [3]])
    assert tf.reduce_sum(x, axis=0).numpy().tolist() == [4, 2]
    assert tf.reduce_max(x, axis=0).numpy().tolist() == [3, 2]
    assert tf.reduce_min(x, axis=1).numpy().tolist() == [1, 2147483647, 3]
    mean = tf.reduce_mean(x, axis=0)  # TF divides by counts: int32 -> float64
    assert mean.dtype == tf.float64 and mean.numpy().tolist() == [2.0, 2.0]
    assert tf.reduce_mean(x).numpy() == 2.0 and tf.reduce_mean(x).dtype == tf.float64
    assert int(tf.reduce_sum(x, axis=[0, 1])) == 6
    assert tf.reduce_sum(x, axis=1, keepdims=True).numpy().tolist() == [[3], [0], [3]]
    inner = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    assert tf.reduce_sum(inner, axis=2).to_list() == [[3], [7, 11]]


def test_concat_and_stack():
    x = tf.ragged.constant([[1, 2], [], [3]])
    assert tf.concat([x, x], axis=0).to_list() == [[1, 2], [], [3], [1, 2], [], [3]]
    assert tf.concat([x, x], axis=1).to_list() == [[1, 2, 1, 2], [], [3, 3]]
    y = tf.ragged.constant([[7], [8, 9], []])
    assert tf.concat([x, y], axis=1).to_list() == [[1, 2, 7], [8, 9], [3]]
    assert tf.stack([x, x]).to_list() == [[[1, 2], [], [3]], [[1, 2], [], [3]]]


def test_dense_calls_are_unchanged():
    assert tf.add(1, 2).numpy() == 3
    with pytest.raises(ValueError):
        tf.math.exp(object())


# ---- gradients ----

def _numeric_grad(f, v, eps=1e-6):
    v = np.asarray(v, np.float64)
    g = np.zeros_like(v)
    for i in range(v.size):
        d = np.zeros_like(v)
        d.flat[i] = eps
        g.flat[i] = (float(f(tf.constant(v + d))) - float(f(tf.constant(v - d)))) / (2 * eps)
    return g


@pytest.mark.parametrize("reduce", ["reduce_sum", "reduce_max", "reduce_mean"])
def test_gradient_through_ragged_ops(reduce):
    values = np.array([0.3, -1.2, 2.0, 0.7, -0.4])
    splits = [0, 2, 2, 5]

    def f(v):
        x = tf.RaggedTensor.from_row_splits(v, splits)
        y = getattr(tf, reduce)(tf.math.sin(x) * x, axis=1)
        y = tf.where(x.row_lengths() > 0, y, tf.zeros_like(y))  # an empty row's max is the lowest float
        return tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0], tf.float64)) + tf.reduce_sum(x.to_tensor() ** 2)

    v = tf.constant(values)
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = f(v)
    got = tape.gradient(out, v)
    np.testing.assert_allclose(tf.convert_to_tensor(got).numpy(), _numeric_grad(f, values), rtol=1e-5, atol=1e-7)


# ---- tf.function ----

def test_function_traces_by_spec():
    traces = []

    @tf.function
    def f(x):
        traces.append(repr(x))
        return x * 2

    assert f(tf.ragged.constant([[1, 2], [], [3]])).to_list() == [[2, 4], [], [6]]
    assert f(tf.ragged.constant([[5], [6, 7], []])).to_list() == [[10], [12, 14], []]
    assert len(traces) == 1
    assert traces[0] == ('tf.RaggedTensor(values=Tensor("x:0", shape=(None,), dtype=int32), '
                         'row_splits=Tensor("x_1:0", shape=(4,), dtype=int64))')
    assert f(tf.ragged.constant([[5], [6, 7]])).to_list() == [[10], [12, 14]]
    assert len(traces) == 2


def test_function_input_signature_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def total(x):
        return tf.reduce_sum(x, axis=1)

    assert total(tf.ragged.constant([[1., 2.], [3.]])).numpy().tolist() == [3.0, 3.0]
    assert total(tf.ragged.constant([[1.], [], [4., 5.]])).numpy().tolist() == [1.0, 0.0, 9.0]
    assert repr(tf.RaggedTensorSpec([None, None], tf.float32)) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)"


def test_boolean_mask_and_activations_as_tf():
    x = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    mask = tf.ragged.constant([[True, False], [], [False, True, True]])
    assert tf.ragged.boolean_mask(x, mask).to_list() == [[1], [], [4, 5]]
    assert tf.ragged.boolean_mask(x, [True, False, True]).to_list() == [[1, 2], [3, 4, 5]]
    assert tf.ragged.boolean_mask(tf.constant([[1, 2], [3, 4]]), [[True, False], [True, True]]).to_list() == \
        [[1], [3, 4]]
    assert repr(tf.nn.relu(tf.ragged.constant([[-1., 2.], [3.]]))) == "<tf.RaggedTensor [[0.0, 2.0], [3.0]]>"
