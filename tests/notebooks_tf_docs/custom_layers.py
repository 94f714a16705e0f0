"""Keras layers: built-in layer variables, custom layers, composing layers into a model."""
import eagerflow as tf

layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")
print(layer.variables)
y = layer(tf.ones([2, 4]))
print(y)
print([v.name for v in layer.variables], layer.kernel.shape, layer.bias.shape)
print(layer.kernel)


class MyDenseLayer(tf.keras.layers.Layer):
    def __init__(self, num_outputs):
        super(MyDenseLayer, self).__init__()
        self.num_outputs = num_outputs

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", shape=[int(input_shape[-1]), self.num_outputs],
                                      initializer=tf.keras.initializers.Constant(0.5))

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


layer = MyDenseLayer(2)
print(layer(tf.ones([3, 5])))
print([var.name for var in layer.trainable_variables])


class ResnetIdentityBlock(tf.keras.Model):
    def __init__(self, filters):
        super(ResnetIdentityBlock, self).__init__(name="")
        self.dense_a = tf.keras.layers.Dense(filters, kernel_initializer="ones")
        self.bn = tf.keras.layers.BatchNormalization()
        self.dense_b = tf.keras.layers.Dense(filters, kernel_initializer="zeros")

    def call(self, input_tensor, training=False):
        x = self.dense_a(input_tensor)
        x = self.bn(x, training=training)
        x = tf.nn.relu(x)
        x = self.dense_b(x)
        return tf.nn.relu(x + input_tensor)


block = ResnetIdentityBlock(4)
print(block(tf.ones([1, 4])))
print(len(block.layers), len(block.variables), len(block.trainable_variables))
print([x.name for x in block.trainable_variables])
print([x.name for x in block.non_trainable_variables])
block.summary()
my_seq = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones"),
                              tf.keras.layers.ReLU(), tf.keras.layers.Dense(1, kernel_initializer="ones")])
print(my_seq(tf.constant([[1.0, -2.0, 3.0]])))
my_seq.summary()
print(my_seq.layers[0].get_config()["units"], my_seq.output_shape)
