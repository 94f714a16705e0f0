"""Graph.as_graph_def(): node names, ops, inputs and attrs (as TF prints AttrValues) of traced functions."""
import eagerflow as tf


def show(graph_def):
    for node in graph_def.node:
        print(node.name, node.op, list(node.input))
        for key in sorted(node.attr):
            text = str(node.attr[key]).strip().replace("\n", " ")
            print(f"  {key}: {text}")


@tf.function
def relu_like(x):
    if x > 0:
        return x * 2
    return x - 1


cf = relu_like.get_concrete_function(tf.TensorSpec([], tf.float32, name="x"))
show(cf.graph.as_graph_def())


@tf.function
def affine(x, w):
    return tf.nn.relu(tf.matmul(x, w) + 1.0)


cf = affine.get_concrete_function(tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([2, 3], tf.float32))
gd = cf.graph.as_graph_def()
show(gd)
print(len(gd.node))
print([o.name for o in cf.graph.get_operations()])
print(cf.graph.inputs, cf.graph.outputs)
print(cf.inputs, cf.outputs)
attr = gd.node[0].attr["dtype"]
print(attr.type == tf.float32.as_datatype_enum, gd.node[0].attr["shape"].shape.dim[0].size)


@tf.function
def consts(s):
    a = tf.constant([1, 2, 3], dtype=tf.int64)
    b = tf.constant([[1.5, 2.0]])
    c = tf.constant("hi")
    d = tf.constant(True)
    return tf.strings.join([s, c]), tf.cast(a, tf.float32), b, d


show(consts.get_concrete_function(tf.TensorSpec([], tf.string)).graph.as_graph_def())
