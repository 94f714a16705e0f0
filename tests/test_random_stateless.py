"""tf.random.stateless_*, tf.random.Generator and tf.random.categorical: distribution moments,
ranges, determinism, graph mode (tf.function) and TF's errors for bad seeds, shapes and dtypes.
Bit-exact values against TensorFlow are in test_random_tf_values.py."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.ops._execute import execute1

SEED = [7, 11]


@pytest.mark.parametrize("dtype, tol", [(tf.float16, 0.03), (tf.float32, 0.01), (tf.float64, 0.01)])
def test_moments(dtype, tol):
    n = 200000
    u = tf.random.stateless_uniform([n], SEED, dtype=dtype).numpy().astype(np.float64)
    assert u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < tol and abs(u.var() - 1 / 12) < tol
    x = tf.random.stateless_normal([n], SEED, dtype=dtype).numpy().astype(np.float64)
    assert abs(x.mean()) < tol and abs(x.std() - 1) < tol
    assert abs(np.mean(x ** 3)) < 3 * tol and abs(np.mean(x ** 4) - 3) < 10 * tol
    t = tf.random.stateless_truncated_normal([n], SEED, dtype=dtype).numpy().astype(np.float64)
    assert np.abs(t).max() <= 2.0
    assert abs(t.mean()) < tol and abs(t.std() - 0.87962566) < tol


def test_mean_stddev_and_range_arguments():
    x = tf.random.stateless_normal([100000], SEED, mean=5.0, stddev=2.0, dtype=tf.float64).numpy()
    assert abs(x.mean() - 5) < 0.05 and abs(x.std() - 2) < 0.05
    u = tf.random.stateless_uniform([100000], SEED, minval=-3.0, maxval=-1.0).numpy()
    assert u.min() >= -3 and u.max() < -1 and abs(u.mean() + 2) < 0.01


@pytest.mark.parametrize("dtype, lo, hi", [(tf.int32, -5, 7), (tf.int64, -2 ** 40, 2 ** 40), (tf.int32, 0, 1)])
def test_integer_ranges(dtype, lo, hi):
    x = tf.random.stateless_uniform([5000], SEED, minval=lo, maxval=hi, dtype=dtype).numpy()
    assert x.dtype == dtype.as_numpy_dtype and x.min() >= lo and x.max() < hi
    if hi - lo < 100:
        assert len(np.unique(x)) == hi - lo


def test_full_range_integers_cover_the_sign_bit():
    for dtype in (tf.int32, tf.int64):
        x = tf.random.stateless_uniform([1000], SEED, minval=None, maxval=None, dtype=dtype).numpy()
        assert (x < 0).mean() > 0.4 and (x > 0).mean() > 0.4


def test_determinism_and_seed_sensitivity():
    a = tf.random.stateless_normal([10], SEED).numpy()
    np.testing.assert_array_equal(a, tf.random.stateless_normal([10], SEED).numpy())
    np.testing.assert_array_equal(a, tf.random.stateless_normal([10], tf.constant(SEED, tf.int64)).numpy())
    assert not np.array_equal(a, tf.random.stateless_normal([10], [7, 12]).numpy())
    assert not np.array_equal(a, tf.random.stateless_normal([10], [8, 11]).numpy())
    # A longer draw starts with the shorter one (values depend only on position).
    np.testing.assert_array_equal(a, tf.random.stateless_normal([1000], SEED).numpy()[:10])


def test_large_outputs_do_not_depend_on_the_split_across_threads():
    big = tf.random.stateless_truncated_normal([300001], SEED).numpy()
    np.testing.assert_array_equal(big[:1001], tf.random.stateless_truncated_normal([1001], SEED).numpy())


def test_split_and_fold_in():
    seeds = tf.random.experimental.stateless_split(SEED, 4).numpy()
    assert seeds.shape == (4, 2) and len({tuple(s) for s in seeds}) == 4
    np.testing.assert_array_equal(seeds, tf.random.split(SEED, 4).numpy())
    folded = tf.random.experimental.stateless_fold_in(SEED, 3).numpy()
    assert folded.shape == (2,) and folded[1] == 3
    assert not np.array_equal(folded, tf.random.fold_in(SEED, 4).numpy())


def test_categorical_frequencies_follow_softmax():
    with np.errstate(divide="ignore"):
        logits = np.log(np.float32([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]]))
    s = tf.random.stateless_categorical(logits, 20000, SEED).numpy()
    assert s.dtype == np.int64 and s.shape == (2, 20000)
    np.testing.assert_allclose(np.bincount(s[0], minlength=3) / 20000, [0.1, 0.2, 0.7], atol=0.015)
    assert set(np.unique(s[1])) == {0, 1}  # a class of probability 0 (log 0 = -inf) never comes up
    c = tf.random.categorical(logits, 20000, seed=3, dtype=tf.int32).numpy()
    assert c.dtype == np.int32
    np.testing.assert_allclose(np.bincount(c[0], minlength=3) / 20000, [0.1, 0.2, 0.7], atol=0.015)


def test_stateless_ops_in_tf_function_equal_eager():
    @tf.function
    def f(seed):
        return (tf.random.stateless_uniform([5], seed), tf.random.stateless_normal([2, 3], seed, dtype=tf.float64),
                tf.random.stateless_truncated_normal([4], seed),
                tf.random.stateless_uniform([3], seed, minval=0, maxval=9, dtype=tf.int64))

    for got, want in zip(f(tf.constant(SEED)), f.python_function(tf.constant(SEED))):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_generator_state_and_sequence():
    g = tf.random.Generator.from_seed(1)
    assert isinstance(g.state, tf.Variable) and g.state.dtype == tf.int64 and g.state.shape == [3]
    assert g.algorithm == 1 and g.key.numpy() == 0
    np.testing.assert_array_equal(g.state.numpy(), [1, 0, 0])
    a = g.normal([10])
    np.testing.assert_array_equal(g.state.numpy(), [1 + 10 * 256, 0, 0])  # 256 counter blocks per value
    b = g.normal([10])
    assert not np.array_equal(a.numpy(), b.numpy())
    g.reset_from_seed(1)
    np.testing.assert_array_equal(a.numpy(), g.normal([10]).numpy())
    g.skip(5)
    np.testing.assert_array_equal(g.state.numpy(), [1 + 15 * 256, 0, 0])
    x = g.uniform([1000], minval=2, maxval=5, dtype=tf.int32).numpy()
    assert x.min() == 2 and x.max() == 4


def test_generator_counter_carries_into_the_high_word():
    g = tf.random.Generator.from_state([-1, 0, 9], alg="philox")
    g.normal([1])
    np.testing.assert_array_equal(g.state.numpy(), [255, 1, 9])


def test_generator_in_tf_function_advances_its_state():
    g = tf.random.Generator.from_seed(5)

    @tf.function
    def draw():
        return g.normal([4])

    eager = tf.random.Generator.from_seed(5)
    first, second = draw().numpy(), draw().numpy()
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(first, eager.normal([4]).numpy())
    np.testing.assert_array_equal(second, eager.normal([4]).numpy())
    np.testing.assert_array_equal(g.state.numpy(), eager.state.numpy())


def test_generator_split_make_seeds_and_global_generator():
    g = tf.random.Generator.from_seed(3)
    children = g.split(3)
    for c in children:
        assert c.state.numpy()[:2].tolist() == [0, 0]
    draws = [c.normal([3]).numpy() for c in children]
    assert len({d.tobytes() for d in draws}) == 3
    seeds = g.make_seeds(4)
    assert seeds.shape == [2, 4] and seeds.dtype == tf.int64 and not seeds.numpy()[1].any()
    tf.random.stateless_normal([2], seeds[:, 0])
    old = tf.random.get_global_generator()
    assert tf.random.get_global_generator() is old
    try:
        tf.random.set_global_generator(g)
        assert tf.random.get_global_generator() is g
    finally:
        tf.random.set_global_generator(old)
    nd = tf.random.Generator.from_non_deterministic_state()
    assert nd.state.shape == [3]


def test_create_rng_state_cuts_big_ints_into_words():
    np.testing.assert_array_equal(tf.random.create_rng_state(2 ** 70 + 5, "philox").numpy(), [5, 64, 0])
    np.testing.assert_array_equal(tf.random.create_rng_state(-3, 1).numpy(), [-3, -1, -1])
    np.testing.assert_array_equal(tf.random.create_rng_state([4, 5], 1).numpy(), [0, 4, 5])


def _raises(cls, text, fn):
    with pytest.raises(cls) as e:
        fn()
    assert text in str(e.value)


def test_bad_seeds():
    _raises(tf.errors.InvalidArgumentError, "seed must have shape [2], not [3]",
            lambda: tf.random.stateless_uniform([2], [1, 2, 3]))
    _raises(tf.errors.InvalidArgumentError, "seed must have shape [2], not []",
            lambda: tf.random.stateless_normal([2], 1))
    _raises(tf.errors.InvalidArgumentError, "seed must have shape [2], not [1,2]",
            lambda: tf.random.stateless_truncated_normal([2], [[1, 2]]))
    _raises(tf.errors.InvalidArgumentError, "Value for attr 'Tseed' of float is not in the list of allowed values",
            lambda: tf.random.stateless_uniform([2], [1.0, 2.0]))
    _raises(tf.errors.InvalidArgumentError, "seed must have shape [2], not [1]",
            lambda: tf.random.stateless_categorical([[1.0, 2.0]], 3, [1]))


def test_bad_arguments():
    _raises(ValueError, "Argument `dtype` got invalid value <dtype: 'string'>. Accepted dtypes are (tf.float16, ",
            lambda: tf.random.stateless_uniform([2], SEED, dtype=tf.string))
    _raises(ValueError, "argument `minval` and `maxval` must be both None or not None. Got `minval`=0 and "
            "`maxval`=None.", lambda: tf.random.stateless_uniform([2], SEED, dtype=tf.int32))
    _raises(tf.errors.InvalidArgumentError, "Need minval < maxval, got 5 >= 5",
            lambda: tf.random.stateless_uniform([2], SEED, minval=5, maxval=5, dtype=tf.int32))
    _raises(tf.errors.InvalidArgumentError, "Dimension -1 must be >= 0", lambda: tf.random.stateless_normal([-1], SEED))
    _raises(ValueError, "Argument `alg` got unsupported value foo. Supported values are philox for the Philox "
            "algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection.",
            lambda: tf.random.stateless_uniform([2], SEED, alg="foo"))
    _raises(ValueError, "Argument `alg` got unsupported value 7. Supported values are 1 for the Philox",
            lambda: tf.random.stateless_uniform([2], SEED, alg=7))
    _raises(tf.errors.InvalidArgumentError, "counter must be a vector with length at least 2; got shape: [1]",
            lambda: tf.random.stateless_uniform([2], SEED, alg="threefry"))
    _raises(tf.errors.InvalidArgumentError, "num_samples should be non-negative, got -1",
            lambda: tf.random.categorical([[1.0, 2.0]], -1))
    _raises(tf.errors.UnimplementedError, "Non-XLA devices don't support the ThreeFry algorithm.",
            lambda: tf.random.Generator.from_seed(1, alg="threefry").normal([2]))
    _raises(tf.errors.InvalidArgumentError, "logits should be a matrix, got shape [2]",
            lambda: tf.random.stateless_categorical([1.0, 2.0], 3, SEED))
    _raises(ValueError, "Shapes (2,) and [3] are incompatible",
            lambda: tf.random.Generator.from_state([1, 2], alg="philox"))
    _raises(ValueError, "For integer dtype <dtype: 'int32'>, minval and maxval must be both `None` or both "
            "non-`None`; got minval=0 and maxval=None",
            lambda: tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int32))


def test_raw_v2_op_checks_key_and_counter():
    key, counter = tf.constant([5, 6], tf.int64), tf.constant([0, 1], tf.int64)
    _raises(tf.errors.InvalidArgumentError, "key must have shape [1], not [2]",
            lambda: execute1("StatelessRandomUniformV2", [tf.constant([2]), key, counter, tf.constant(1)]))
    _raises(tf.errors.InvalidArgumentError, "Unsupported algorithm id: 2",
            lambda: execute1("StatelessRandomUniformV2", [tf.constant([2]), key[:1], counter, tf.constant(2)]))


def test_generator_state_is_checkpointed(tmp_path):
    g = tf.random.Generator.from_seed(7)
    g.normal([3])
    path = tf.train.Checkpoint(gen=g).write(str(tmp_path / "ck"))
    expected = g.normal([2]).numpy()
    restored = tf.random.Generator.from_seed(1)
    tf.train.Checkpoint(gen=restored).read(path).assert_consumed()
    np.testing.assert_array_equal(restored.normal([2]).numpy(), expected)
    # TF's checkpoint key for the state (TF restores this file and continues the same sequence).
    assert "gen/_state_var/.ATTRIBUTES/VARIABLE_VALUE" in dict(tf.train.list_variables(path))
