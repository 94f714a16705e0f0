"""Random pipelines of tf.data transformations against a Python list model of the same steps
(hypothesis draws the steps and their arguments); cardinality against the model's length where
TF knows it."""
import numpy as np
from hypothesis import given, settings, strategies as st

import eagerflow as tf


def _batch(xs, n, drop):
    out = [xs[i:i + n] for i in range(0, len(xs), n)]
    return [b for b in out if len(b) == n] if drop else out


# Each step: (name, strategy of its arguments, dataset transformation, list model, keeps cardinality known).
STEPS = {
    "take": (st.integers(-1, 12), lambda d, n: d.take(n), lambda xs, n: xs if n < 0 else xs[:n]),
    "skip": (st.integers(-1, 12), lambda d, n: d.skip(n), lambda xs, n: [] if n < 0 else xs[n:]),
    "repeat": (st.integers(0, 3), lambda d, n: d.repeat(n), lambda xs, n: xs * n),
    "map": (st.integers(-3, 3), lambda d, k: d.map(lambda x: x * 3 + k), None),
    "filter": (st.integers(2, 4), lambda d, k: d.filter(lambda x: tf.reduce_all(x % k != 0)), None),
    "batch_unbatch": (st.integers(1, 5), lambda d, n: d.batch(n).unbatch(), lambda xs, n: xs),
    "prefetch": (st.integers(0, 3), lambda d, n: d.prefetch(n), lambda xs, n: xs),
    "cache": (st.just(0), lambda d, _: d.cache(), lambda xs, _: xs),
    "concat_self": (st.just(0), lambda d, _: d.concatenate(d), lambda xs, _: xs + xs),
    "parallel_map": (st.integers(1, 4), lambda d, n: d.map(lambda x: x - 1, num_parallel_calls=n), None),
    "take_while": (st.integers(0, 40), lambda d, k: d.take_while(lambda x: tf.reduce_all(x < k)), None),
}


def _model(name, xs, arg):
    if name == "map":
        return [x * 3 + arg for x in xs]
    if name == "filter":
        return [x for x in xs if x % arg != 0]
    if name == "parallel_map":
        return [x - 1 for x in xs]
    if name == "take_while":
        out = []
        for x in xs:
            if not x < arg:
                break
            out.append(x)
        return out
    return STEPS[name][2](xs, arg)


@st.composite
def pipelines(draw):
    n = draw(st.integers(0, 15))
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(sorted(STEPS)))
        steps.append((name, draw(STEPS[name][0])))
    return n, steps


@settings(max_examples=60, deadline=None)
@given(pipelines(), st.integers(1, 4), st.booleans())
def test_pipelines_match_the_list_model(pipeline, batch, drop):
    n, steps = pipeline
    ds, xs = tf.data.Dataset.range(n), list(range(n))
    for name, arg in steps:
        ds, xs = STEPS[name][1](ds, arg), _model(name, xs, arg)
    assert [int(x) for x in ds] == xs, steps
    card = int(ds.cardinality())
    assert card == len(xs) or card == tf.data.UNKNOWN_CARDINALITY, (steps, card)
    batched = [b.tolist() for b in ds.batch(batch, drop_remainder=drop).as_numpy_iterator()]
    assert batched == _batch(xs, batch, drop)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(1, 50), st.integers(0, 2 ** 31))
def test_shuffle_is_a_bounded_permutation(n, buffer, seed):
    order = [int(x) for x in tf.data.Dataset.range(n).shuffle(buffer, seed=seed)]
    assert sorted(order) == list(range(n))
    # An element can come out no earlier than buffer - 1 places before its input position.
    assert all(pos >= x - (buffer - 1) for pos, x in enumerate(order))
    assert [int(x) for x in tf.data.Dataset.range(n).shuffle(buffer, seed=seed)] == order


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=8), st.integers(1, 3))
def test_padded_batch_matches_numpy(lengths, size):
    ds = tf.data.Dataset.from_tensor_slices(np.array(lengths, np.int64)).map(lambda k: tf.fill([k], k + 1))
    got = [b for b in ds.padded_batch(size).as_numpy_iterator()]
    for i, b in enumerate(got):
        chunk = lengths[i * size:(i + 1) * size]
        want = np.zeros((len(chunk), max(chunk)), np.int64)
        for r, k in enumerate(chunk):
            want[r, :k] = k + 1
        np.testing.assert_array_equal(b, want)
