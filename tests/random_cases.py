"""Random-number cases whose values must equal TensorFlow's bit for bit (test_random_tf_values.py).

`cases(tf)` builds them for either library. Run under TensorFlow to print the table of expected
digests that the test hard-codes:  TF_USE_LEGACY_KERAS=1 python tests/random_cases.py
"""
import hashlib

import numpy as np

SEEDS = [[1, 2], [0, 0], [-1, -2], [2 ** 31 - 1, 12345]]
SHAPES = [[], [7], [3, 5], [1001]]


def digest(x):
    """dtype, shape and the first 16 hex digits of the sha256 of the value's bytes."""
    a = np.array(np.asarray(x), order="C")
    return f"{a.dtype.name}{list(a.shape)}:{hashlib.sha256(a.tobytes()).hexdigest()[:16]}"


def cases(tf):
    """name -> a function returning a tensor (or a list of tensors) to digest."""
    c = {}
    for i, seed in enumerate(SEEDS):
        for j, shape in enumerate(SHAPES):
            for dt in ("float16", "float32", "float64"):
                c[f"uniform/{i}/{j}/{dt}"] = lambda s=seed, sh=shape, d=dt: tf.random.stateless_uniform(sh, s, dtype=d)
                c[f"normal/{i}/{j}/{dt}"] = lambda s=seed, sh=shape, d=dt: tf.random.stateless_normal(sh, s, dtype=d)
                c[f"truncated/{i}/{j}/{dt}"] = (
                    lambda s=seed, sh=shape, d=dt: tf.random.stateless_truncated_normal(sh, s, dtype=d))
        c[f"int32/{i}"] = lambda s=seed: tf.random.stateless_uniform([9], s, minval=-5, maxval=100, dtype=tf.int32)
        c[f"int64/{i}"] = lambda s=seed: tf.random.stateless_uniform([9], s, minval=-5, maxval=10 ** 12,
                                                                      dtype=tf.int64)
        c[f"full_int32/{i}"] = lambda s=seed: tf.random.stateless_uniform([9], s, minval=None, maxval=None,
                                                                           dtype=tf.int32)
        c[f"full_int64/{i}"] = lambda s=seed: tf.random.stateless_uniform([9], s, minval=None, maxval=None,
                                                                           dtype=tf.int64)
        c[f"categorical/{i}"] = lambda s=seed: tf.random.stateless_categorical(
            [[0.0, 1.0, 2.0], [2.0, 2.0, -1.0]], 7, s)
        c[f"split/{i}"] = lambda s=seed: tf.random.experimental.stateless_split(s, 3)
        c[f"fold_in/{i}"] = lambda s=seed: tf.random.experimental.stateless_fold_in(s, 7)
    c["seed_int64"] = lambda: tf.random.stateless_uniform([5], tf.constant([2 ** 40, -5], tf.int64))
    c["uniform_range"] = lambda: tf.random.stateless_uniform([6], [4, 5], minval=-3.0, maxval=2.5)
    c["normal_moments"] = lambda: tf.random.stateless_normal([4], [4, 5], mean=3.0, stddev=0.5, dtype=tf.float64)
    c["alg_philox"] = lambda: tf.random.stateless_normal([5], [6, 7], alg="philox")
    c["generator"] = lambda: _generator_sequence(tf)
    c["global_seed"] = lambda: _global_seed_sequence(tf)
    c["function"] = lambda: _function_sequence(tf)
    c["keras"] = lambda: _keras_weights(tf)
    c["keras_dropout"] = lambda: _keras_dropout(tf)
    return c


def _generator_sequence(tf):
    g = tf.random.Generator.from_seed(42)
    out = [g.normal([5]), g.uniform([3], dtype=tf.float64), g.uniform([4], minval=-7, maxval=9, dtype=tf.int32),
           g.uniform([3], minval=None, maxval=None, dtype=tf.int64), g.truncated_normal([6], dtype=tf.float16),
           g.make_seeds(2), g.state.read_value()]
    child = g.split(2)[1]
    out += [child.normal([3]), child.state.read_value()]
    g.skip(10)
    out.append(g.state.read_value())
    g.reset_from_seed(2 ** 70 + 3)
    out += [g.state.read_value(), g.uniform([4])]
    h = tf.random.Generator.from_state([7, -1, 3], alg="philox")
    out += [h.normal([2, 2]), h.state.read_value()]
    return out


def _global_seed_sequence(tf):
    tf.random.set_seed(5)
    out = [tf.random.uniform([5]), tf.random.uniform([5]), tf.random.normal([3], dtype=tf.float64),
           tf.random.truncated_normal([6]), tf.random.uniform([4], maxval=100, dtype=tf.int32),
           tf.random.uniform([3], seed=7), tf.random.uniform([3], seed=7), tf.random.shuffle(tf.range(10)),
           tf.random.categorical([[0.0, 1.0, 2.0]], 6), tf.nn.dropout(tf.ones([8]), 0.5)]
    tf.random.set_seed(None)
    out += [tf.random.uniform([3], seed=11), tf.random.uniform([3], seed=11)]
    return out


def _function_sequence(tf):
    tf.random.set_seed(9)

    @tf.function
    def f():
        return tf.random.uniform([3]), tf.random.normal([2]), tf.random.stateless_uniform([2], [1, 2])

    g = tf.random.Generator.from_seed(3)

    @tf.function
    def h():
        return g.normal([3]), g.uniform([2], maxval=10, dtype=tf.int64)

    return [*f(), *f(), *h(), *h(), g.state.read_value()]


def _keras_weights(tf):
    ks = tf.keras
    out = [getattr(ks.initializers, name)(seed=7)((3, 4)) for name in (
        "glorot_uniform", "glorot_normal", "he_normal", "he_uniform", "lecun_normal", "lecun_uniform")]
    out += [ks.initializers.RandomNormal(0.5, 2.0, seed=3)((5,)), ks.initializers.RandomUniform(-1, 1, seed=3)((5,)),
            ks.initializers.TruncatedNormal(0.0, 1.0, seed=3)((7,)),
            ks.initializers.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=3)((2, 3), dtype="float64")]
    ks.utils.set_random_seed(11)
    m = ks.Sequential([ks.layers.Dense(4, input_shape=(3,)), ks.layers.Dense(2)])
    out += list(m.weights) + [ks.initializers.GlorotUniform()((2, 2))]
    return out


def _keras_dropout(tf):
    tf.random.set_seed(None)
    x = tf.ones([10])
    seeded = tf.keras.layers.Dropout(0.5, seed=3)
    out = [seeded(x, training=True), seeded(x, training=True)]
    tf.random.set_seed(4)
    unseeded = tf.keras.layers.Dropout(0.3)
    out += [unseeded(x, training=True), unseeded(x, training=True)]
    tf.random.set_seed(None)
    return out


def run(tf):
    result = {}
    for name, fn in cases(tf).items():
        v = fn()
        vs = v if isinstance(v, (list, tuple)) else [v]
        result[name] = " ".join(digest(x) for x in vs)
    return result


if __name__ == "__main__":
    import warnings

    import tensorflow
    warnings.simplefilter("ignore")
    print("EXPECTED = {")
    for name, d in run(tensorflow).items():
        print(f"    {name!r}: {d!r},")
    print("}")
