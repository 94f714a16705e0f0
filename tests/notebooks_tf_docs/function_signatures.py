"""How concrete functions print their signatures, and the class of a signature mismatch."""
import eagerflow as tf


@tf.function
def double(a):
    return a + a


double(tf.constant(1))
double(tf.constant(1.5))
print(double.pretty_printed_concrete_signatures())
print(double.pretty_printed_concrete_signatures(verbose=False))
print(double.get_concrete_function(tf.constant("a")))


@tf.function
def scaled(x, pair, scale=2):
    return {"y": x * scale, "first": pair[0]}


print(scaled.get_concrete_function(tf.TensorSpec([None, 3]), (tf.constant(1), tf.constant("s"))))


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz.get_concrete_function())
try:
    next_collatz(tf.constant([[1, 2], [3, 4]]))
except TypeError as e:
    print(type(e).__name__)
