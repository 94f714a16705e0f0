"""The tour printed by `python -m eagerflow`."""


def main():
    import eagerflow as tf

    print(f"eagerflow {tf.__version__}: eager execution is on: {tf.executing_eagerly()}")
    a = tf.constant([[1, 2], [3, 4]])
    print(a)
    print(a + 1)
