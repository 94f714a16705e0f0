"""Graph.as_graph_def(): node names, ops, inputs and attrs of traced functions."""
import eagerflow as tf


@tf.function
def relu_like(x):
    if x > 0:
        return x * 2
    return x - 1


cf = relu_like.get_concrete_function(tf.TensorSpec([], tf.float32, name="x"))
print(cf.graph.as_graph_def())


@tf.function
def affine(x, w):
    return tf.nn.relu(tf.matmul(x, w) + 1.0)


cf = affine.get_concrete_function(tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([2, 3], tf.float32))
gd = cf.graph.as_graph_def()
for node in gd.node:
    print(node.name, node.op, list(node.input), sorted(node.attr.keys()))
print(len(gd.node))
print([o.name for o in cf.graph.get_operations()])
print(cf.graph.inputs, cf.graph.outputs)
print(cf.inputs, cf.outputs)


@tf.function
def fizz(n):
    s = tf.constant(0)
    for i in tf.range(n):
        s += i
    return s


cf = fizz.get_concrete_function(tf.constant(3))
print(sorted({node.op for node in cf.graph.as_graph_def().node}))
print(fizz(tf.constant(5)))
