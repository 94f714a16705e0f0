"""tf.function with variables and modules: creation on the first trace only, captures, methods."""
import eagerflow as tf


class Counter(tf.Module):
    def __init__(self):
        super().__init__(name="counter")
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)


c = Counter()
print(c(), c())
print(c.trainable_variables, c.variables)
print([v.name for v in c.variables])


@tf.function
def make_variable():
    v = tf.Variable(1.0)
    return v + 1


try:
    make_variable()
    make_variable()
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])

v = tf.Variable(2.0)


@tf.function
def scale(x):
    return v * x


cf = scale.get_concrete_function(tf.TensorSpec([], tf.float32))
print(len(cf.captured_inputs), cf.captured_inputs[0].dtype)
print(cf.variables)
print(scale(tf.constant(3.0)))
v.assign(4.0)
print(scale(tf.constant(3.0)))


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0], [2.0]], name="w")
        self.b = tf.Variable([0.5], name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return x @ self.w + self.b


m = Model()
print(m(tf.constant([[1.0, 1.0], [2.0, 0.0]])))
print([x.name for x in m.trainable_variables])
print(m.__call__.get_concrete_function().structured_input_signature)
print(m.__call__.experimental_get_tracing_count())


@tf.function
def loop_sum(n):
    total = tf.constant(0)
    i = tf.constant(0)
    while i < n:
        total += i
        i += 1
    return total


print(loop_sum(tf.constant(5)), loop_sum(tf.constant(10)))
print(loop_sum.experimental_get_tracing_count())


@tf.function
def py_loop(n):
    total = 0
    for i in range(n):
        total += i
    return total


print(py_loop(4), py_loop(5), py_loop.experimental_get_tracing_count())
