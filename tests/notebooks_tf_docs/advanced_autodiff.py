"""Advanced autodiff: stop_recording, reset, custom_gradient, nested tapes, jacobians, hessians."""
import eagerflow as tf

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    x_sq = x * x
    with t.stop_recording():
        y_sq = y * y
    z = x_sq + y_sq
grad = t.gradient(z, {"x": x, "y": y})
print("dz/dx:", grad["x"])
print("dz/dy:", grad["y"])
reset = True
with tf.GradientTape() as t:
    y_sq = y * y
    if reset:
        t.reset()
    z = x * x + y_sq
grad = t.gradient(z, {"x": x, "y": y})
print("dz/dx:", grad["x"], "dz/dy:", grad["y"])


@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward


v = tf.Variable(2.0)
with tf.GradientTape() as t:
    output = clip_gradients(v * v)
print(t.gradient(output, v))
x = tf.Variable(1.0)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
print("dy_dx:", dy_dx.numpy(), "d2y_dx2:", d2y_dx2.numpy())
x = tf.linspace(-2.0, 2.0, 5)
delta = tf.Variable(0.0)
with tf.GradientTape() as tape:
    y = tf.nn.sigmoid(x + delta)
print(tape.jacobian(y, delta).numpy().round(6))
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
w = tf.Variable([[0.5, -1.0], [2.0, 0.0]])
with tf.GradientTape(persistent=True) as tape:
    y = tf.matmul(x, w)
j = tape.jacobian(y, w)
print(j.shape)
print(tf.reduce_sum(j, axis=[0, 1]))
print(tape.jacobian(y, w, experimental_use_pfor=False).shape)
x = tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.nn.relu(x) * x
jb = tape.batch_jacobian(y, x)
print(jb.shape)
print(jb)
print(tape.jacobian(y, x).shape)
del tape
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = tf.reduce_sum(x**3)
    g = t1.gradient(y, x)
print(t2.jacobian(g, x))


w = tf.Variable([[1.0, -1.0], [0.5, 2.0]])
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        loss = tf.reduce_sum(tf.matmul(w, w) ** 2)
    g = t1.gradient(loss, w)
h = t2.jacobian(g, w)
print(h.shape)
print(tf.reshape(h, [4, 4]))


@tf.function
def hessian_in_function(v):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(v**3)
        dy = inner.gradient(y, v)
    return outer.jacobian(dy, v)


print(hessian_in_function(tf.Variable([1.0, 2.0])))
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x[0] * 2.0
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.gather(x, [1, 1])
g = tape.gradient(y, x)
print(type(g).__name__, tf.convert_to_tensor(g))
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.math.log(x) + tf.math.exp(x) * tf.math.tanh(x)
print(tape.gradient(y, x).numpy().round(5))
