"""flat_map, interleave, unbatch, padded_batch, take_while, cache and optionals, against Python and
NumPy models of TF's semantics (interleave's cycle/block order, padding)."""
import itertools

import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return list(ds.as_numpy_iterator())


def test_flat_map():
    ds = tf.data.Dataset.range(4).flat_map(lambda x: tf.data.Dataset.range(x))
    assert repr(ds) == "<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert values(ds) == [j for i in range(4) for j in range(i)]
    assert int(ds.cardinality()) == -2
    rows = tf.data.Dataset.from_tensor_slices(np.arange(6).reshape(3, 2))
    assert values(rows.flat_map(tf.data.Dataset.from_tensor_slices)) == list(range(6))
    with pytest.raises(TypeError, match="must return a `Dataset` object"):
        tf.data.Dataset.range(3).flat_map(lambda x: x)


def _interleave_model(inputs, fn, cycle, block):
    """TF's interleave order in Python."""
    it, slots, out = iter(inputs), [None] * cycle, []
    i, done = 0, False
    while not done or any(s is not None for s in slots):
        if slots[i] is not None:
            chunk = list(itertools.islice(slots[i], block))
            out += chunk
            if len(chunk) < block:
                slots[i] = None
                if not chunk:
                    i = (i + 1) % cycle
                    continue
            i = (i + 1) % cycle
        elif not done:
            x = next(it, None)
            if x is None:
                done = True
            else:
                slots[i] = iter(fn(x))
        else:
            i = (i + 1) % cycle
    return out


@pytest.mark.parametrize("cycle,block", [(1, 1), (2, 1), (2, 2), (3, 4), (5, 2)])
def test_interleave_matches_model(cycle, block):
    ds = tf.data.Dataset.range(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x),
                                                cycle_length=cycle, block_length=block)
    want = _interleave_model(range(1, 6), lambda x: [x] * x, cycle, block)
    assert values(ds) == want


def test_interleave_reprs_and_tf_order():
    ds = tf.data.Dataset.range(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6),
                                                cycle_length=2, block_length=4)
    assert values(ds) == [1] * 4 + [2] * 4 + [1] * 2 + [2] * 2 + [3] * 4 + [4] * 4 + [3] * 2 + [4] * 2 + [5] * 6
    assert repr(ds).startswith("<_InterleaveDataset element_spec=")
    par = tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.range(x), num_parallel_calls=2)
    assert repr(par).startswith("<_ParallelInterleaveDataset element_spec=")
    assert sorted(values(par)) == [0, 0, 1]


def test_unbatch():
    x = np.arange(12).reshape(6, 2)
    ds = tf.data.Dataset.from_tensor_slices(x).batch(4).unbatch()
    assert repr(ds) == "<_UnbatchDataset element_spec=TensorSpec(shape=(2,), dtype=tf.int64, name=None)>"
    for got, want in zip(values(ds), x):
        np.testing.assert_array_equal(got, want)
    assert len(values(ds)) == 6
    with pytest.raises(ValueError, match="^Cannot unbatch an input with scalar components.$"):
        tf.data.Dataset.range(3).unbatch()


def _pad_model(rows, shape, value):
    out = np.full((len(rows),) + tuple(shape), value)
    for i, r in enumerate(rows):
        out[(i,) + tuple(slice(0, d) for d in r.shape)] = r
    return out


def test_padded_batch_matches_numpy():
    ragged = tf.data.Dataset.range(5).map(lambda x: tf.reshape(tf.fill([x * 2], x), [-1, 2]))
    ds = ragged.padded_batch(2)
    assert repr(ds) == "<_PaddedBatchDataset element_spec=TensorSpec(shape=(None, None, 2), dtype=tf.int64, name=None)>"
    rows = [np.full((i, 2), i) for i in range(5)]
    for k, got in enumerate(values(ds)):
        chunk = rows[2 * k:2 * k + 2]
        np.testing.assert_array_equal(got, _pad_model(chunk, (max(r.shape[0] for r in chunk), 2), 0))
    fixed = ragged.padded_batch(2, padded_shapes=[5, 2], padding_values=np.int64(-1), drop_remainder=True)
    assert fixed.element_spec == tf.TensorSpec([2, 5, 2], tf.int64)
    got = values(fixed)
    assert len(got) == 2
    np.testing.assert_array_equal(got[1], _pad_model(rows[2:4], (5, 2), -1))
    with pytest.raises(tf.errors.DataLossError, match="Attempted to pad to a smaller size than the input element."):
        values(ragged.padded_batch(2, padded_shapes=[2, 2]))


def test_padded_batch_nested_and_strings():
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c"]).map(lambda s: (tf.fill([2], s), s))
    (words, single), = values(ds.padded_batch(3))[:1]
    assert words.shape == (3, 2) and list(single) == [b"a", b"b", b"c"]


def test_take_while():
    ds = tf.data.Dataset.range(10).take_while(lambda x: x < 4)
    assert repr(ds) == "<_TakeWhileDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert values(ds) == [0, 1, 2, 3]
    assert values(tf.data.Dataset.from_tensor_slices([1, 5, 1]).take_while(lambda x: x < 3)) == [1]
    with pytest.raises(ValueError, match=r"^Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but "
                                         r"its return type isTensorSpec"):
        tf.data.Dataset.range(3).take_while(lambda x: x)


def test_cache_reads_the_input_once():
    calls = []

    def count(x):
        calls.append(int(x))
        return x
    ds = tf.data.Dataset.range(5).map(lambda x: tf.py_function(count, [x], tf.int64)).cache()
    assert repr(ds) == "<CacheDataset element_spec=TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)>"
    assert values(ds) == [0, 1, 2, 3, 4]
    assert values(ds) == [0, 1, 2, 3, 4]
    assert calls == [0, 1, 2, 3, 4]
    assert int(ds.cardinality()) == 5
    partial = tf.data.Dataset.range(3).cache()
    next(iter(partial))  # an unfinished pass caches nothing
    assert values(partial) == [0, 1, 2]


def test_get_next_as_optional():
    it = iter(tf.data.Dataset.from_tensor_slices({"a": [1, 2]}))
    opt = it.get_next_as_optional()
    assert bool(opt.has_value()) and int(opt.get_value()["a"]) == 1
    assert opt.element_spec == {"a": tf.TensorSpec([], tf.int32)}
    it.get_next_as_optional()
    end = it.get_next_as_optional()
    assert not bool(end.has_value())
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        end.get_value()
    assert str(info.value) == ("{{function_node __wrapped__OptionalGetValue_output_types_1_device_/job:localhost/"
                               "replica:0/task:0/device:CPU:0}} The given optional does not have a value. "
                               "[Op:OptionalGetValue]")


def test_experimental_namespaces():
    ds = tf.data.Dataset.range(3)
    assert int(tf.data.experimental.cardinality(ds)) == 3
    assert tf.data.experimental.AUTOTUNE == tf.data.AUTOTUNE
    assert int(tf.data.experimental.get_next_as_optional(iter(ds)).get_value()) == 0
    some = tf.experimental.Optional.from_value((1, "a"))
    assert bool(some.has_value()) and some.get_value()[1].numpy() == b"a"
    none = tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32))
    assert not bool(none.has_value())
    assert tf.data.experimental.Optional is tf.experimental.Optional


def test_padded_batch_refuses_impossible_shapes():
    ds = tf.data.Dataset.range(3).map(lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=[2 ** 62])
    with pytest.raises((tf.errors.InvalidArgumentError, tf.errors.ResourceExhaustedError)):
        next(iter(ds))
