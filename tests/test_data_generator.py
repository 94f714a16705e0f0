"""Dataset.from_generator: the generator runs in Python (GeneratorDataset's functions call it through
numpy_function); TF 2.21's reprs, signatures and errors."""
import gc

import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return list(ds.as_numpy_iterator())


def test_output_signature():
    def gen():
        for i in range(3):
            yield i, [i] * i
    ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec((), tf.int32),
                                                                tf.TensorSpec((None,), tf.int32)))
    assert repr(ds) == ("<_FlatMapDataset element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                        "TensorSpec(shape=(None,), dtype=tf.int32, name=None))>")
    got = values(ds)
    assert [a for a, _ in got] == [0, 1, 2]
    assert [b.tolist() for _, b in got] == [[], [1], [2, 2]]
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert len(values(ds)) == 3


def test_output_types_and_shapes():
    gen = lambda: iter([(1, [1, 2]), (2, [3, 4])])  # noqa: E731
    ds = tf.data.Dataset.from_generator(gen, (tf.int64, tf.int64))
    assert repr(ds.element_spec) == ("(TensorSpec(shape=<unknown>, dtype=tf.int64, name=None), "
                                     "TensorSpec(shape=<unknown>, dtype=tf.int64, name=None))")
    ds = tf.data.Dataset.from_generator(gen, (tf.int64, tf.int64), ((), (None,)))
    assert ds.element_spec == (tf.TensorSpec([], tf.int64), tf.TensorSpec([None], tf.int64))
    assert [b.tolist() for _, b in values(ds)] == [[1, 2], [3, 4]]
    single = tf.data.Dataset.from_generator(lambda: iter([1, 2]), tf.float32)
    assert single.element_spec == tf.TensorSpec(None, tf.float32)
    assert values(single) == [1.0, 2.0]


def test_args_and_pipeline():
    ds = tf.data.Dataset.from_generator(lambda n: range(n), tf.int32, args=(5,))
    assert values(ds.map(lambda x: x * 2).batch(2))[-1].tolist() == [8]
    assert values(ds.prefetch(2)) == [0, 1, 2, 3, 4]


def test_bad_yields_raise_at_iteration():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"TypeError: `generator` yielded an element that did not match the expected structure. "
                             r"The expected structure was TensorSpec\(shape=<unknown>, dtype=tf.int32, name=None\), "
                             r"but the yielded element was 1.5."):
        list(tf.data.Dataset.from_generator(lambda: iter([1.5]), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"TypeError: `generator` yielded an element of shape \(2,\) where an element of shape "
                             r"\(3,\) was expected."):
        list(tf.data.Dataset.from_generator(lambda: iter([[1, 2]]), tf.int32, output_shapes=(3,)))


def test_generator_errors_reach_the_caller():
    def bad():
        yield 1
        raise ValueError("boom")
    it = iter(tf.data.Dataset.from_generator(bad, tf.int32).prefetch(2))
    assert int(next(it)) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom"):
        next(it)


def test_bad_arguments():
    with pytest.raises(TypeError, match="^To specify the output signature you need to provide either the "
                                        "`output_signature` argument or the `output_types` argument.$"):
        tf.data.Dataset.from_generator(lambda: iter([]))
    with pytest.raises(TypeError, match="^`generator` must be a Python callable.$"):
        tf.data.Dataset.from_generator(3, tf.int32)


def test_abandoned_iterations_release_their_generators():
    closed = []

    def gen():
        try:
            for i in range(10 ** 6):
                yield i
        finally:
            closed.append(1)
    ds = tf.data.Dataset.from_generator(gen, tf.int64)
    for _ in range(5):
        it = iter(ds)
        next(it)
        del it
    gc.collect()
    assert len(closed) == 5
    assert np.sum(values(ds.take(4))) == 6
