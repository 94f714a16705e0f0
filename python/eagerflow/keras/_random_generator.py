"""Keras 2's stateless RandomGenerator, as its initializers use it: a seed fixed on first use (the
user's, else one drawn from the generator that tf.keras.utils.set_random_seed installs, else from
Python's `random`), and stateless ops on [seed, 0], so seeded weights equal tf_keras's."""
import random
import threading

from eagerflow.ops import stateless_random_ops

_SEED_GENERATOR = threading.local()  # .generator: random.Random(seed) after set_random_seed


def set_seed_generator(seed):
    _SEED_GENERATOR.generator = random.Random(seed)


def _create_seed(user_seed):
    if user_seed is not None:
        return user_seed
    generator = getattr(_SEED_GENERATOR, "generator", None)
    if generator is not None:
        return generator.randint(1, int(1e9))
    return random.randint(1, int(1e9))


class RandomGenerator:
    """Draws from the stateless ops with one seed, chosen the first time it is needed."""

    def __init__(self, seed=None):
        self._seed = seed
        self._built = False

    def _stateless_seed(self):
        if not self._built:
            self._seed = _create_seed(self._seed)
            self._built = True
        return [self._seed, 0]

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None):
        return stateless_random_ops.stateless_random_normal(shape, self._stateless_seed(), mean, stddev, dtype)

    def random_uniform(self, shape, minval=0.0, maxval=None, dtype=None):
        return stateless_random_ops.stateless_random_uniform(shape, self._stateless_seed(), minval, maxval, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None):
        return stateless_random_ops.stateless_truncated_normal(shape, self._stateless_seed(), mean, stddev, dtype)
