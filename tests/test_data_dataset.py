"""tf.data.Dataset: sources, transformations, iteration, cardinality and reprs, checked against
NumPy's slicing and batching of the same data and against TF 2.21's printed forms and errors."""
import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return list(ds.as_numpy_iterator())


def spec(shape, dtype):
    return "TensorSpec(shape=%s, dtype=tf.%s, name=None)" % (shape, dtype)


# ---- sources ----

def test_from_tensor_slices_repr_and_values():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    assert repr(ds) == "<_TensorSliceDataset element_spec=%s>" % spec("()", "int32")
    assert values(ds) == [1, 2, 3]
    assert isinstance(ds, tf.data.Dataset)


@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 3, 2), (0, 2)])
def test_from_tensor_slices_rows_match_numpy(shape):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    ds = tf.data.Dataset.from_tensor_slices(x)
    assert ds.element_spec == tf.TensorSpec(shape[1:], tf.float32)
    got = values(ds)
    assert len(got) == shape[0]
    for row, want in zip(got, x):
        np.testing.assert_array_equal(row, want)


def test_from_tensor_slices_nested():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": ([[1., 2.], [3., 4.]], ["x", "y"])})
    assert repr(ds.element_spec) == "{'a': %s, 'b': (%s, %s)}" % (
        spec("()", "int32"), spec("(2,)", "float32"), spec("()", "string"))
    got = values(ds)
    assert got[1]["a"] == 2 and got[1]["b"][1] == b"y"
    np.testing.assert_array_equal(got[1]["b"][0], [3., 4.])


def test_from_tensor_slices_bad_input():
    with pytest.raises(ValueError, match="^Dimensions 2 and 3 are not compatible$"):
        tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))
    with pytest.raises(ValueError, match=r"^Unbatching a tensor is only supported for rank >= 1$"):
        tf.data.Dataset.from_tensor_slices(5)


def test_from_tensors():
    ds = tf.data.Dataset.from_tensors(([1, 2], 3.0))
    assert repr(ds) == "<_TensorDataset element_spec=(%s, %s)>" % (spec("(2,)", "int32"), spec("()", "float32"))
    (a, b), = values(ds)
    np.testing.assert_array_equal(a, [1, 2])
    assert b == 3.0
    assert [int(x) for x in tf.data.Dataset.from_tensors(5).repeat(3)] == [5, 5, 5]


@pytest.mark.parametrize("args", [(5,), (2, 7), (0, 10, 3), (10, 0, -3), (5, 5), (3, 1), (-4, 4, 2)])
def test_range_matches_python(args):
    ds = tf.data.Dataset.range(*args)
    assert repr(ds) == "<_RangeDataset element_spec=%s>" % spec("()", "int64")
    assert values(ds) == list(range(*args))
    assert int(ds.cardinality()) == len(range(*args))


def test_range_output_type_and_arity():
    ds = tf.data.Dataset.range(1, 5, 2, output_type=tf.float32)
    assert ds.element_spec == tf.TensorSpec([], tf.float32)
    assert values(ds) == [1.0, 3.0]
    for bad in [(), (1, 2, 3, 4)]:
        with pytest.raises(ValueError, match="The length of `args` should be between 1 and 3 but was %d." % len(bad)):
            tf.data.Dataset.range(*bad)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"step must be a non-zero integer. \[Op:RangeDataset\]"):
        tf.data.Dataset.range(1, 2, 0)


# ---- transformations ----

@pytest.mark.parametrize("n,size,drop", [(10, 3, False), (10, 3, True), (9, 3, False), (2, 5, False), (2, 5, True),
                                         (0, 2, False)])
def test_batch_matches_numpy(n, size, drop):
    x = np.arange(n * 2).reshape(n, 2)
    ds = tf.data.Dataset.from_tensor_slices(x).batch(size, drop_remainder=drop)
    want = [x[i:i + size] for i in range(0, n, size) if not drop or i + size <= n]
    got = values(ds)
    assert len(got) == len(want) == int(ds.cardinality())
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_batch_spec_and_errors():
    ds = tf.data.Dataset.range(3)
    assert repr(ds.batch(2)) == "<_BatchDataset element_spec=%s>" % spec("(None,)", "int64")
    assert repr(ds.batch(2, drop_remainder=True)) == "<_BatchDataset element_spec=%s>" % spec("(2,)", "int64")
    for bad in (0, -1):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"^\{\{function_node __wrapped__BatchDatasetV2_device_/job:localhost/replica:0/task:0/"
                                 r"device:CPU:0\}\} Batch size must be greater than zero. \[Op:BatchDatasetV2\]"):
            ds.batch(bad)
    ragged = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: tf.fill([x], x)).batch(2)
    assert ragged.element_spec == tf.TensorSpec([None, None], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot batch tensors with different shapes in component 0. First element had shape "
                             r"\[1\] and element 1 had shape \[2\]."):
        next(iter(ragged))


def test_map_structures():
    ds = tf.data.Dataset.range(3)
    m = ds.map(lambda x: (x, {"y": x * 2}))
    assert repr(m) == "<_MapDataset element_spec=(%s, {'y': %s})>" % (spec("()", "int64"), spec("()", "int64"))
    assert values(m) == [(0, {"y": 0}), (1, {"y": 2}), (2, {"y": 4})]
    assert values(ds.map(lambda x: (x, x)).map(lambda a, b: a + b)) == [0, 2, 4]
    assert values(ds.map(lambda x: {"a": x}).map(lambda d: d["a"] * 3)) == [0, 3, 6]
    assert ds.map(lambda x: [x, x]).element_spec == (tf.TensorSpec([], tf.int64),) * 2
    assert ds.map(lambda x: "s").element_spec == tf.TensorSpec([], tf.string)
    assert ds.map(lambda x: tf.fill([x], x)).element_spec == tf.TensorSpec([None], tf.int64)


def test_map_captures_and_parallel():
    scale = tf.constant(10, tf.int64)
    v = tf.Variable(1, dtype=tf.int64)
    ds = tf.data.Dataset.range(4).map(lambda x: x * scale + v, num_parallel_calls=tf.data.AUTOTUNE)
    assert repr(ds).startswith("<_ParallelMapDataset element_spec=")
    assert values(ds) == [1, 11, 21, 31]
    v.assign(2)  # the graph reads the variable's live value
    assert values(ds) == [2, 12, 22, 32]


def test_map_uses_autograph():
    def f(x):
        if x > 1:
            return x * 100
        return x
    assert values(tf.data.Dataset.range(4).map(f)) == [0, 1, 200, 300]


def test_map_py_function_and_prefetch_do_not_deadlock():
    def slow(x):
        return x + 1
    ds = tf.data.Dataset.range(20).map(lambda x: tf.py_function(slow, [x], tf.int64)).prefetch(4)
    assert values(ds) == list(range(1, 21))


def test_filter():
    ds = tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0)
    assert repr(ds) == "<_FilterDataset element_spec=%s>" % spec("()", "int64")
    assert values(ds) == [0, 3, 6, 9]
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    with pytest.raises(ValueError, match=r"^Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, "
                                         r"but its return type is TensorSpec\(shape=\(\), dtype=tf.int64"):
        tf.data.Dataset.range(3).filter(lambda x: x)


def test_repeat_take_skip_match_python():
    base = list(range(5))
    ds = tf.data.Dataset.range(5)
    assert values(ds.repeat(3)) == base * 3
    assert values(ds.repeat(0)) == []
    assert values(ds.repeat().take(12)) == (base * 3)[:12]
    assert values(ds.take(2)) == base[:2]
    assert values(ds.take(-1)) == base
    assert values(ds.skip(2)) == base[2:]
    assert values(ds.skip(-1)) == []
    assert values(ds.skip(9)) == []
    assert values(ds.take(0).repeat()) == []  # an empty input repeated forever ends
    for name, d in [("Repeat", ds.repeat()), ("Take", ds.take(1)), ("Skip", ds.skip(1))]:
        assert repr(d) == "<_%sDataset element_spec=%s>" % (name, spec("()", "int64"))


def test_shuffle_is_a_permutation_and_repeatable_with_a_seed():
    ds = tf.data.Dataset.range(50)
    a = values(ds.shuffle(10, seed=7))
    assert sorted(a) == list(range(50)) and a != list(range(50))
    assert values(ds.shuffle(10, seed=7)) == a
    s = ds.shuffle(50, seed=3)
    first, second = values(s), values(s)
    assert first != second and sorted(second) == list(range(50))  # reshuffled each iteration
    fixed = ds.shuffle(50, seed=3, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    # A buffer of b can move an element at most b - 1 places ahead of the input order.
    order = values(ds.shuffle(4, seed=1))
    assert all(order.index(i) >= i - 3 for i in range(50))
    assert repr(s) == "<_ShuffleDataset element_spec=%s>" % spec("()", "int64")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="buffer_size must be greater than zero or UNKNOWN_CARDINALITY"):
        ds.shuffle(0)


def test_shuffle_follows_the_global_seed():
    tf.random.set_seed(5)
    a = values(tf.data.Dataset.range(20).shuffle(20))
    tf.random.set_seed(5)
    b = values(tf.data.Dataset.range(20).shuffle(20))
    assert a == b


def test_prefetch():
    ds = tf.data.Dataset.range(100).map(lambda x: x * 2).prefetch(tf.data.AUTOTUNE)
    assert repr(ds) == "<_PrefetchDataset element_spec=%s>" % spec("()", "int64")
    assert values(ds) == [2 * i for i in range(100)]
    assert values(tf.data.Dataset.range(3).prefetch(0)) == [0, 1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning"):
        ds.prefetch(-5)


def test_concatenate():
    a = tf.data.Dataset.range(3)
    ds = a.concatenate(tf.data.Dataset.range(10, 12))
    assert repr(ds) == "<_ConcatenateDataset element_spec=%s>" % spec("()", "int64")
    assert values(ds) == [0, 1, 2, 10, 11]
    mixed = tf.data.Dataset.from_tensor_slices([[1], [2]]).concatenate(tf.data.Dataset.from_tensor_slices([[1, 2]]))
    assert mixed.element_spec == tf.TensorSpec([None], tf.int32)
    with pytest.raises(TypeError, match=r"^Incompatible dataset elements:\n  TensorSpec\(shape=\(\), dtype=tf.int64, "
                                        r"name=None\) vs.   TensorSpec\(shape=\(\), dtype=tf.float32, name=None\)$"):
        a.concatenate(tf.data.Dataset.from_tensor_slices([1., 2.]))
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        a.concatenate(tf.data.Dataset.zip((a, a)))


def test_zip_and_enumerate():
    a, b = tf.data.Dataset.range(3), tf.data.Dataset.from_tensor_slices(["x", "y"])
    z = tf.data.Dataset.zip((a, b))
    assert repr(z) == "<_ZipDataset element_spec=(%s, %s)>" % (spec("()", "int64"), spec("()", "string"))
    assert values(z) == [(0, b"x"), (1, b"y")]
    assert values(tf.data.Dataset.zip(a, a)) == [(0, 0), (1, 1), (2, 2)]
    assert values(tf.data.Dataset.zip({"p": a, "q": b})) == [{"p": 0, "q": b"x"}, {"p": 1, "q": b"y"}]
    assert values(tf.data.Dataset.zip(datasets=(a, a)).take(1)) == [(0, 0)]
    assert values(b.enumerate(start=5)) == [(5, b"x"), (6, b"y")]
    with pytest.raises(TypeError, match=r"^Invalid input to `zip`. Inputs are expected to be \(nested\) structures of "
                                        r"`tf.data.Dataset` objects but encountered object of type <class 'int'>.$"):
        tf.data.Dataset.zip((a, 3))


def test_cardinality_follows_tf():
    ds = tf.data.Dataset.range(3)
    unknown = ds.filter(lambda x: True)
    cases = [(ds, 3), (ds.repeat(), -1), (ds.repeat(2), 6), (ds.repeat(0), 0), (ds.take(5), 3), (ds.take(-5), -5),
             (ds.take(-1), 3), (ds.repeat().take(4), 4), (ds.skip(10), 0), (ds.skip(-1), 0), (ds.repeat().skip(3), -1),
             (ds.batch(2), 2), (ds.batch(2, drop_remainder=True), 1), (ds.repeat().batch(2), -1),
             (unknown, -2), (unknown.repeat(), -1), (unknown.take(2), -2), (ds.shuffle(2), 3), (ds.prefetch(1), 3),
             (tf.data.Dataset.zip((ds, ds.take(2))), 2), (tf.data.Dataset.zip((ds.repeat(), unknown)), -2),
             (tf.data.Dataset.zip((ds.repeat(), ds.repeat())), -1), (ds.concatenate(ds), 6),
             (ds.repeat().concatenate(unknown), -1), (unknown.concatenate(ds), -2)]
    for d, want in cases:
        c = d.cardinality()
        assert c.dtype == tf.int64 and int(c) == want, (d, int(c), want)
    assert (tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY, tf.data.AUTOTUNE) == (-1, -2, -1)
    assert len(ds) == 3
    with pytest.raises(TypeError, match="^The dataset is infinite.$"):
        len(ds.repeat())
    with pytest.raises(TypeError, match="^The dataset length is unknown.$"):
        len(unknown)


def test_reduce_and_apply():
    ds = tf.data.Dataset.range(5)
    r = ds.reduce(np.int64(0), lambda s, x: s + x)
    assert r.dtype == tf.int64 and int(r) == 10
    assert [int(t) for t in ds.reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * 2))] == [10, 32]
    grown = ds.reduce(tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))
    np.testing.assert_array_equal(grown.numpy(), np.arange(5))
    with pytest.raises(TypeError, match=r"^The element types for the new state must match the initial state. "
                                        r"Expected <dtype: 'int64'> but got <dtype: 'float32'>.$"):
        ds.reduce(np.int64(0), lambda s, x: tf.cast(s, tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\(initial_state=2, output=1\)"):
        ds.reduce((np.int64(0), np.int64(0)), lambda s, x: s[0])
    assert values(ds.apply(lambda d: d.take(2))) == [0, 1]
    with pytest.raises(TypeError, match="`transformation_func` must return a `tf.data.Dataset` object"):
        ds.apply(lambda d: 3)


# ---- the guide's pipeline shape ----

def test_training_pipeline_matches_numpy():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((103, 4)).astype(np.float32)
    y = rng.integers(0, 3, 103).astype(np.int64)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(200, seed=1).batch(16).prefetch(tf.data.AUTOTUNE)
    assert ds.element_spec == (tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None], tf.int64))
    xs, ys = zip(*[(bx.numpy(), by.numpy()) for bx, by in ds])
    assert [len(b) for b in xs] == [16] * 6 + [7]
    got_x, got_y = np.concatenate(xs), np.concatenate(ys)
    order = np.lexsort(got_x.T)
    want = np.lexsort(x.T)
    np.testing.assert_array_equal(got_x[order], x[want])
    np.testing.assert_array_equal(got_y[order], y[want])


def test_sliced_rows_share_the_source_safely():
    # Rows above the inline size are views of the source buffer: they must outlive the dataset,
    # and an op on one row (which may reuse its input's buffer) must not change the others.
    x = np.arange(4 * 100, dtype=np.float32).reshape(4, 100)
    ds = tf.data.Dataset.from_tensor_slices(x)
    it = iter(ds)
    first = next(it)
    doubled = tf.nn.relu(next(it) * 2.0)
    del ds, it
    np.testing.assert_array_equal(first.numpy(), x[0])
    np.testing.assert_array_equal(doubled.numpy(), x[1] * 2)
    rows = list(tf.data.Dataset.from_tensor_slices(x))
    neg = [tf.negative(r) for r in rows]  # elementwise ops on the views
    for i, r in enumerate(rows):
        np.testing.assert_array_equal(r.numpy(), x[i])
        np.testing.assert_array_equal(neg[i].numpy(), -x[i])
    batches = list(tf.data.Dataset.from_tensor_slices(x).shuffle(4, seed=1).batch(3))
    assert sorted(np.concatenate([b.numpy() for b in batches])[:, 0].tolist()) == [0, 100, 200, 300]
