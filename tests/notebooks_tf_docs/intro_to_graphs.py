"""Graphs: tf.function wrapping, Python side effects at trace time, tf.print, graph_def."""
import eagerflow as tf


def a_regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


a_function_that_uses_a_graph = tf.function(a_regular_function)
x1 = tf.constant([[1.0, 2.0]])
y1 = tf.constant([[2.0], [3.0]])
b1 = tf.constant(4.0)
orig_value = a_regular_function(x1, y1, b1).numpy()
tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
print(orig_value, tf_function_value, orig_value == tf_function_value)
print(type(a_function_that_uses_a_graph).__name__)


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


tf_simple_relu = tf.function(simple_relu)
print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
print([n.op for n in tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def().node])
print(tf_simple_relu(tf.constant(-5)))
print(tf_simple_relu(tf.constant(3)))


@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


y_true = tf.constant([5, 0, 3, 6, 2], dtype=tf.int32)
y_pred = tf.constant([7, 9, 4, 4, 8], dtype=tf.int32)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
print(error)
tf.config.run_functions_eagerly(True)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(False)


@tf.function
def get_MSE2(y_true, y_pred):
    tf.print("Calculating MSE with tf.print")
    return tf.reduce_mean(tf.pow(y_true - y_pred, 2))


for _ in range(2):
    get_MSE2(y_true, y_pred)


def unused_return_eager(x):
    tf.gather(x, [1])
    return x


try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    print(f"{type(e).__name__}: {e.message}")


@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])
    return x


print(unused_return_graph(tf.constant([0.0])))


@tf.function
def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


print(power(tf.eye(10, dtype=tf.int32), 3)[0])
print(power.experimental_get_tracing_count())
