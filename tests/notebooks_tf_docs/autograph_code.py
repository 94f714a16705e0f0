"""tf.autograph.to_code of loops and conditionals, and the graphs AutoGraph builds."""
import eagerflow as tf


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


print(tf.autograph.to_code(sum_even))


def count_down(n):
    while n > 0:
        n -= 1
    return n


print(tf.autograph.to_code(count_down))
f = tf.function(count_down)
print(f(tf.constant(4)))
print(tf.function(sum_even)(tf.constant([10, 12, 15, 20])))
