"""tf.function: tracing, retracing rules, input signatures, concrete functions and their printing."""
import eagerflow as tf


@tf.function
def add(a, b):
    return a + b


print(add(tf.ones([2, 2]), tf.ones([2, 2])))


@tf.function
def double(a):
    print("Tracing with", a)
    return a + a


print(double(tf.constant(1)))
print()
print(double(tf.constant(1.1)))
print()
print(double(tf.constant("a")))
print()
print(double(tf.constant("b")))
print("Obtaining concrete trace")
double_strings = double.get_concrete_function(tf.constant("a"))
print("Executing traced function")
print(double_strings(tf.constant("a")))
print(double_strings(a=tf.constant("b")))
print(double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string))(tf.constant("c")))
print(double_strings.structured_input_signature)
print(double_strings.structured_outputs)
try:
    double_strings(tf.constant(1))
except tf.errors.InvalidArgumentError as e:
    print("Caught expected exception:", type(e).__name__)


@tf.function
def pow_(a, b):
    return a**b


square = pow_.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square(tf.constant(10.0)) == 100)
try:
    square(tf.constant(10.0), b=3)
except TypeError as e:
    print("Caught expected exception:", type(e).__name__)
graph = double_strings.graph
for node in graph.as_graph_def().node:
    print(f"{node.input} -> {node.name}")


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))


@tf.function(reduce_retracing=True)
def g(x):
    print("Tracing with", x)
    return x


g(tf.constant([1, 2, 3]))
g(tf.constant([1, 2, 3, 4, 5]))
g(tf.constant([1, 2, 3, 4, 5, 6, 7]))


@tf.function
def train(num_steps):
    print("Tracing with num_steps = ", num_steps)
    tf.print("Executing with num_steps = ", num_steps)
    for _ in tf.range(num_steps):
        pass


print("Retracing occurs for different Python arguments.")
train(num_steps=10)
train(num_steps=20)
print()
print("Traces are reused for Tensor arguments.")
train(num_steps=tf.constant(10))
train(num_steps=tf.constant(20))
print(train.experimental_get_tracing_count())
