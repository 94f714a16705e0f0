"""tf.SparseTensor and tf.sparse: printing (TF 2.21's text), the kernels against NumPy, TF's errors,
gradients through sparse_dense_matmul and to_dense, and sparse arguments of tf.function."""
import numpy as np
import pytest

import eagerflow as tf

SP = dict(indices=[[0, 0], [1, 2]], values=[1., 2.], dense_shape=[3, 4])


def sp():
    return tf.sparse.SparseTensor(**SP)


def dense_of(indices, values, shape):
    a = np.zeros(shape, np.asarray(values).dtype)
    for i, v in zip(indices, values):
        a[tuple(i)] += v
    return a


def random_sparse(rng, shape, nnz, dtype=np.float64):
    flat = rng.choice(int(np.prod(shape)), size=nnz, replace=False)
    idx = np.stack(np.unravel_index(np.sort(flat), shape), axis=1).astype(np.int64)
    return idx, rng.standard_normal(nnz).astype(dtype)


def test_printing_matches_tf():
    text = ("SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), values=tf.Tensor([1. 2.], "
            "shape=(2,), dtype=float32), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")
    assert repr(sp()) == text and str(sp()) == text
    assert repr(sp()._type_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    assert sp().shape.as_list() == [3, 4] and sp().dtype == tf.float32 and sp().get_shape().as_list() == [3, 4]


def test_construction_errors_as_tf():
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1., 2., 3.], dense_shape=[3, 4])
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank 2"):
        tf.sparse.SparseTensor(indices=[0, 1], values=[1., 2.], dense_shape=[3, 4])
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.sparse.SparseTensor(indices=[[0.5, 0], [1, 2]], values=[1., 2.], dense_shape=[3, 4])
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.convert_to_tensor(sp())


@pytest.mark.parametrize("seed", range(4))
def test_to_dense_from_dense_reorder_match_numpy(seed):
    rng = np.random.default_rng(seed)
    shape = (4, 3, 5)
    idx, vals = random_sparse(rng, shape, 7)
    st = tf.sparse.SparseTensor(idx, vals, shape)
    want = dense_of(idx, vals, shape)
    np.testing.assert_array_equal(tf.sparse.to_dense(st).numpy(), want)
    back = tf.sparse.from_dense(want)
    np.testing.assert_array_equal(back.indices.numpy(), idx)
    np.testing.assert_array_equal(back.values.numpy(), vals)
    perm = rng.permutation(7)
    shuffled = tf.sparse.SparseTensor(idx[perm], vals[perm], shape)
    ordered = tf.sparse.reorder(shuffled)
    np.testing.assert_array_equal(ordered.indices.numpy(), idx)
    np.testing.assert_array_equal(ordered.values.numpy(), vals)
    np.testing.assert_array_equal(tf.sparse.to_dense(ordered).numpy(), want)


def test_string_values():
    st = tf.sparse.SparseTensor([[0], [2]], ["a", "b"], [3])
    assert tf.sparse.to_dense(st).numpy().tolist() == [b"a", b"", b"b"]
    assert tf.sparse.to_dense(st, default_value="z").numpy().tolist() == [b"a", b"z", b"b"]
    assert tf.sparse.from_dense(tf.constant(["", "x", ""])).indices.numpy().tolist() == [[1]]


def test_to_dense_default_and_errors():
    assert tf.sparse.to_dense(sp(), default_value=5.).numpy().tolist() == \
        [[1., 5., 5., 5.], [5., 5., 2., 5.], [5., 5., 5., 5.]]
    unordered = tf.sparse.SparseTensor([[1, 0], [0, 1]], [1., 2.], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[0,1\] is out of order. Many sparse "
                                                             r"ops require sorted indices."):
        tf.sparse.to_dense(unordered)
    assert tf.sparse.to_dense(unordered, validate_indices=False).numpy()[0, 1] == 2.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1\] = \[5,1\] is out of bounds: need 0 <= index < \[3,4\]"):
        tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 0], [5, 1]], [1., 2.], [3, 4]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[1,0\] is repeated"):
        tf.sparse.to_dense(tf.sparse.SparseTensor([[1, 0], [1, 0]], [1., 2.], [3, 4]))
    raw = tf.raw_ops.SparseToDense
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"sparse_values has incorrect shape \[3\], should be "
                                                             r"\[\] or \[2\]"):
        raw(sparse_indices=[[0, 1], [1, 0]], output_shape=[3, 4], sparse_values=[1., 2., 3.], default_value=0.)
    with pytest.raises(tf.errors.InvalidArgumentError, match="output_shape has incorrect number of elements: 2 "
                                                             "should be: 3"):
        raw(sparse_indices=[[1, 0, 0], [0, 1, 0]], output_shape=[3, 4], sparse_values=[1., 2.], default_value=0.)
    with pytest.raises(tf.errors.InvalidArgumentError, match="default_value should be a scalar."):
        raw(sparse_indices=[[0, 1]], output_shape=[3, 4], sparse_values=[1.], default_value=[0.])
    assert raw(sparse_indices=[1, 2], output_shape=[3], sparse_values=[1., 2.], default_value=0.).numpy().tolist() == \
        [0., 1., 2.]
    assert raw(sparse_indices=2, output_shape=[3], sparse_values=1., default_value=0.).numpy().tolist() == [0., 0., 1.]


@pytest.mark.parametrize("adjoint_a", [False, True])
@pytest.mark.parametrize("adjoint_b", [False, True])
def test_sparse_dense_matmul_matches_numpy(adjoint_a, adjoint_b):
    rng = np.random.default_rng(3)
    idx, vals = random_sparse(rng, (4, 5), 8)
    a = dense_of(idx, vals, (4, 5))
    b = rng.standard_normal((3, 4) if adjoint_a == adjoint_b else (4, 3))
    if adjoint_a:
        b = b.reshape(4, 3) if not adjoint_b else b.reshape(3, 4)
    else:
        b = rng.standard_normal((3, 5) if adjoint_b else (5, 3))
    st = tf.sparse.SparseTensor(idx, vals, (4, 5))
    got = tf.sparse.sparse_dense_matmul(st, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b).numpy()
    want = (a.T if adjoint_a else a) @ (b.T if adjoint_b else b)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # dense @ sparse
    c = rng.standard_normal((2, 4))
    np.testing.assert_allclose(tf.sparse.sparse_dense_matmul(c, st).numpy(), c @ a, rtol=1e-12)


def test_sparse_dense_matmul_errors_as_tf():
    st = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1., 2.], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Cannot multiply A and B because inner dimension does "
                                                             r"not match: 4 vs. 3.  Did you forget a transpose\?"):
        tf.sparse.sparse_dense_matmul(st, tf.ones([3, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor 'b' is not a matrix"):
        tf.sparse.sparse_dense_matmul(st, tf.ones([4]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"m \(5\) from index\[1,0\] out of bounds \(>=3\)"):
        tf.sparse.sparse_dense_matmul(tf.sparse.SparseTensor([[0, 0], [5, 2]], [1., 2.], [3, 4]), tf.ones([4, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"k \(7\) from index\[1,1\] out of bounds \(>=4\)"):
        tf.sparse.sparse_dense_matmul(tf.sparse.SparseTensor([[0, 0], [1, 7]], [1., 2.], [3, 4]), tf.ones([4, 2]))


def _numeric(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        g.flat[i] = (float(f(x + d)) - float(f(x - d))) / (2 * eps)
    return g


@pytest.mark.parametrize("adjoint_a", [False, True])
def test_sparse_dense_matmul_gradients(adjoint_a):
    rng = np.random.default_rng(5)
    idx, vals = random_sparse(rng, (3, 4), 5)
    b = rng.standard_normal((3 if adjoint_a else 4, 2))
    w = rng.standard_normal((4 if adjoint_a else 3, 2))

    def loss(v, bb):
        st = tf.sparse.SparseTensor(idx, v, (3, 4))
        return tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, bb, adjoint_a=adjoint_a) * w)

    v_t, b_t = tf.constant(vals), tf.constant(b)
    with tf.GradientTape() as tape:
        tape.watch([v_t, b_t])
        out = loss(v_t, b_t)
    gv, gb = tape.gradient(out, [v_t, b_t])
    np.testing.assert_allclose(gv.numpy(), _numeric(lambda v: loss(tf.constant(v), b_t), vals), rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), _numeric(lambda bb: loss(v_t, tf.constant(bb)), b), rtol=1e-6)


def test_add_and_reduce_sum():
    st = sp()
    assert repr(tf.sparse.add(st, st).values) == repr(tf.constant([2., 4.]))
    assert tf.sparse.add(st, tf.ones([3, 4])).numpy().tolist() == [[2., 1., 1., 1.], [1., 1., 3., 1.], [1., 1., 1., 1.]]
    other = tf.sparse.SparseTensor([[0, 0], [2, 3]], [10., 20.], [3, 4])
    total = tf.sparse.add(st, other)
    assert total.indices.numpy().tolist() == [[0, 0], [1, 2], [2, 3]] and total.values.numpy().tolist() == [11., 2., 20.]
    assert tf.sparse.add(st, other, threshold=5).values.numpy().tolist() == [11., 20.]
    assert tf.sparse.reduce_sum(st, axis=1).numpy().tolist() == [1., 2., 0.]
    assert float(tf.sparse.reduce_sum(st)) == 3.0
    assert tf.sparse.reduce_sum(st, axis=1, keepdims=True).numpy().tolist() == [[1.], [2.], [0.]]
    assert tf.sparse.reduce_sum(st, axis=-1).numpy().tolist() == [1., 2., 0.]
    out = tf.sparse.reduce_sum(st, axis=0, output_is_sparse=True)
    assert out.indices.numpy().tolist() == [[0], [2]] and out.dense_shape.numpy().tolist() == [4]
    assert (st * 2).values.numpy().tolist() == [2., 4.]


def test_add_gradient_reaches_both_values():
    a_vals, b_vals = tf.constant([1., 2.]), tf.constant([10., 20.])
    with tf.GradientTape() as tape:
        tape.watch([a_vals, b_vals])
        a = tf.sparse.SparseTensor([[0, 0], [1, 2]], a_vals, [3, 4])
        b = tf.sparse.SparseTensor([[2, 3], [0, 0]], b_vals, [3, 4])
        s = tf.sparse.add(a, b)
        y = tf.reduce_sum(s.values * tf.constant([1., 2., 3.]))
    ga, gb = tape.gradient(y, [a_vals, b_vals])
    assert ga.numpy().tolist() == [1., 2.] and gb.numpy().tolist() == [3., 1.]


def test_function_arguments_trace_by_spec():
    traces = []

    @tf.function
    def f(s):
        traces.append(1)
        return tf.sparse.to_dense(s) * 2

    assert f(sp()).numpy()[1, 2] == 4.
    assert f(tf.sparse.SparseTensor([[0, 0]], [1.], [3, 4])).numpy()[0, 0] == 2.
    assert len(traces) == 1
    f(tf.sparse.SparseTensor([[0, 0]], [1.], [3, 5]))
    assert len(traces) == 2

    @tf.function
    def identity(s):
        return s

    out = identity(sp())
    assert isinstance(out, tf.SparseTensor) and repr(out) == repr(sp())

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    def rows(s):
        return tf.sparse.reduce_sum(s, axis=1)

    assert rows(sp()).numpy().tolist() == [1., 2., 0.]
