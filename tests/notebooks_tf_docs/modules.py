"""tf.Module: variables, submodules, name scopes, and Keras layers built from them."""
import eagerflow as tf


class SimpleModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.a_variable = tf.Variable(5.0, name="train_me")
        self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

    def __call__(self, x):
        return self.a_variable * x + self.non_trainable_variable


simple_module = SimpleModule(name="simple")
print(simple_module(tf.constant(5.0)))
print("trainable variables:", simple_module.trainable_variables)
print("all variables:", simple_module.variables)
print(simple_module.name, simple_module.name_scope.name)


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


my_model = SequentialModule(name="the_model")
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))
print("Submodules:", [type(m).__name__ for m in my_model.submodules])
for var in my_model.variables:
    print(var.name, var.shape)


class MyModule(tf.Module):
    @tf.Module.with_name_scope
    def __call__(self, x):
        if not hasattr(self, "v"):
            self.v = tf.Variable(x, name="v")
        return self.v * x


m = MyModule(name="scoped")
print(m(tf.constant(3.0)), m.v.name)
with tf.name_scope("outer"):
    inner = tf.Variable(1.0, name="inner")
print(inner.name)
print(tf.Module().name, SimpleModule().name)
try:
    tf.Module(name="bad name")
except ValueError as e:
    print("ValueError:", e)


class FlexibleDense(tf.keras.layers.Layer):
    def __init__(self, out_features, **kwargs):
        super().__init__(**kwargs)
        self.out_features = out_features

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=[input_shape[-1], self.out_features], initializer="ones")
        self.b = self.add_weight(name="b", shape=[self.out_features], initializer="zeros")

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


flexible_dense = FlexibleDense(out_features=3)
print(flexible_dense.variables)
print("Model results:", flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])))
print([(v.name, v.shape.as_list()) for v in flexible_dense.variables])
print(flexible_dense.built, flexible_dense.name, flexible_dense.trainable_weights[1])
try:
    flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]]))
except tf.errors.InvalidArgumentError as e:
    print("Failed:", type(e).__name__)
