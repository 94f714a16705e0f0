"""FusedBatchNormV3 / FusedBatchNormGradV3 (tf.compat.v1.nn.fused_batch_norm) against values from TF
2.21 and the composite moments/batch_normalization ops, and keras BatchNormalization on the fused
path against tf_keras."""
import numpy as np
import pytest

import eagerflow as tf

X = np.arange(24, dtype=np.float32).reshape(2, 2, 3, 2) ** 1.5 / 10
SCALE, OFFSET = np.float32([1.5, 0.5]), np.float32([0.1, -0.2])
MEAN, VAR = np.float32([0.3, 0.4]), np.float32([2.0, 3.0])
EMPTY = np.float32([])


def _fbn(mean=EMPTY, var=EMPTY, **attrs):
    return tf.raw_ops.FusedBatchNormV3(x=X, scale=SCALE, offset=OFFSET, mean=mean, variance=var, epsilon=0.001,
                                       **attrs)


def test_training_returns_the_bessel_corrected_variance():
    y, mean, var, saved_mean, saved_var, reserve = _fbn(is_training=True)
    np.testing.assert_allclose(y.numpy().ravel()[:4], [-1.791864, -0.853788, -1.665145, -0.794127], rtol=1e-5)
    np.testing.assert_allclose(mean.numpy(), [4.222728, 4.698305], rtol=1e-6)
    np.testing.assert_allclose(var.numpy(), [12.227528, 13.490105], rtol=1e-6)
    np.testing.assert_allclose(saved_mean.numpy(), mean.numpy())
    np.testing.assert_allclose(saved_var.numpy(), [11.208567, 12.365929], rtol=1e-6)  # biased
    assert reserve.shape == (0,)
    flat = X.reshape(-1, 2)
    np.testing.assert_allclose(var.numpy(), flat.var(0, ddof=1), rtol=1e-5)


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_batch_statistics_of_large_inputs_far_from_zero(data_format):
    # Many rows (split over threads) and a mean 1e4 times the spread: the variance must not cancel.
    rng = np.random.default_rng(0)
    x = (1e4 + rng.standard_normal((8, 40, 40, 3))).astype(np.float32)
    if data_format == "NCHW":
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    axes = (0, 2, 3) if data_format == "NCHW" else (0, 1, 2)
    y, mean, var = tf.raw_ops.FusedBatchNormV3(x=x, scale=np.ones(3, np.float32), offset=np.zeros(3, np.float32),
                                               mean=EMPTY, variance=EMPTY, epsilon=1e-5, is_training=True,
                                               data_format=data_format)[:3]
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(mean.numpy(), x64.mean(axes), rtol=1e-7)
    np.testing.assert_allclose(var.numpy(), x64.var(axes, ddof=1), rtol=1e-4)
    shape = [1, 3, 1, 1] if data_format == "NCHW" else [3]
    want = (x64 - x64.mean(axes).reshape(shape)) / np.sqrt(x64.var(axes).reshape(shape) + 1e-5)
    np.testing.assert_allclose(y.numpy(), want, atol=5e-3)


def test_exponential_avg_factor_and_inference():
    _, mean, var, *_ = _fbn(MEAN, VAR, is_training=True, exponential_avg_factor=0.1)
    np.testing.assert_allclose(mean.numpy(), [0.692273, 0.829831], rtol=1e-5)
    np.testing.assert_allclose(var.numpy(), [3.022753, 4.04901], rtol=1e-5)
    y, mean, var, *_ = _fbn(MEAN, VAR, is_training=False)
    np.testing.assert_allclose(y.numpy().ravel()[:4], [-0.218119, -0.286588, 0.081806, -0.165476], rtol=1e-5)
    np.testing.assert_array_equal(mean.numpy(), MEAN)
    np.testing.assert_array_equal(var.numpy(), VAR)


def test_grad_op_values_from_tf():
    dy = np.sin(np.arange(24)).reshape(2, 2, 3, 2).astype(np.float32)
    r = _fbn(is_training=True)
    dx, dscale, doffset, _, _ = tf.raw_ops.FusedBatchNormGradV3(
        y_backprop=dy, x=X, scale=SCALE, reserve_space_1=r[3], reserve_space_2=r[4], reserve_space_3=r[5],
        epsilon=0.001, is_training=True)
    np.testing.assert_allclose(dx.numpy().ravel()[:4], [-0.016465, 0.094115, 0.390426, -0.003502], atol=2e-6)
    np.testing.assert_allclose(dscale.numpy(), [0.155911, -1.385919], rtol=1e-5)
    np.testing.assert_allclose(doffset.numpy(), [0.637654, 0.342151], rtol=1e-5)
    dx, dscale, *_ = tf.raw_ops.FusedBatchNormGradV3(
        y_backprop=dy, x=X, scale=SCALE, reserve_space_1=MEAN, reserve_space_2=VAR, reserve_space_3=r[5],
        epsilon=0.001, is_training=False)
    np.testing.assert_allclose(dx.numpy().ravel()[:4], [0.0, 0.242871, 0.964215, 0.040731], atol=2e-6)
    np.testing.assert_allclose(dscale.numpy(), [2.137295, -1.964478], rtol=1e-5)


@pytest.mark.parametrize("data_format, training", [("NHWC", True), ("NHWC", False), ("NCHW", True),
                                                   ("NCHW", False)])
def test_gradient_matches_the_composite_ops(data_format, training):
    rng = np.random.default_rng(2)
    x = tf.Variable(rng.standard_normal((3, 4, 5, 2)).astype(np.float32) * 2 + 1)
    c = 2 if data_format == "NHWC" else 4
    scale = tf.Variable(rng.uniform(0.5, 1.5, c).astype(np.float32))
    offset = tf.Variable(rng.standard_normal(c).astype(np.float32))
    mean, var = rng.standard_normal(c).astype(np.float32), rng.uniform(0.5, 2, c).astype(np.float32)
    axes = [0, 1, 2] if data_format == "NHWC" else [0, 2, 3]
    shape = [1, 1, 1, c] if data_format == "NHWC" else [1, c, 1, 1]
    with tf.GradientTape(persistent=True) as tape:
        y, _, _ = tf.compat.v1.nn.fused_batch_norm(x, scale, offset, mean, var, 0.01, data_format, training)
        loss = tf.reduce_sum(y * tf.sin(y))
        m, v = tf.nn.moments(x, axes) if training else (tf.constant(mean), tf.constant(var))
        ref = tf.nn.batch_normalization(x, tf.reshape(m, shape), tf.reshape(v, shape), tf.reshape(offset, shape),
                                        tf.reshape(scale, shape), 0.01)
        ref_loss = tf.reduce_sum(ref * tf.sin(ref))
    np.testing.assert_allclose(y.numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)
    for got, want in zip(tape.gradient(loss, [x, scale, offset]), tape.gradient(ref_loss, [x, scale, offset])):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-3, atol=1e-4)


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must be 4 or 5-dimensional\[2,3,2\]"):
        tf.raw_ops.FusedBatchNormV3(x=tf.zeros([2, 3, 2]), scale=SCALE, offset=OFFSET, mean=MEAN, variance=VAR,
                                    is_training=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="scale must have the same number of elements as the "
                                                              "channels of x, got 3 and 2"):
        tf.raw_ops.FusedBatchNormV3(x=X, scale=tf.zeros([3]), offset=OFFSET, mean=MEAN, variance=VAR)
    with pytest.raises(tf.errors.InvalidArgumentError, match="When is_training=false, variance must have the same "
                                                              "number of elements as the channels of x, got 3 and 2"):
        tf.raw_ops.FusedBatchNormV3(x=X, scale=SCALE, offset=OFFSET, mean=MEAN, variance=tf.zeros([3]),
                                    is_training=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of double is not in the list"):
        tf.raw_ops.FusedBatchNormV3(x=tf.zeros([2, 2, 2, 2], tf.float64), scale=SCALE, offset=OFFSET, mean=MEAN,
                                    variance=VAR)
    with pytest.raises(ValueError, match="Both `mean` and `variance` must be a 1D tensor"):
        tf.compat.v1.nn.fused_batch_norm(X, SCALE, OFFSET, is_training=False)


# tf_keras 2.21 (TF_USE_LEGACY_KERAS=1) on x below: two training calls (x, then x / 2), then inference.
_KERAS_CASES = [
    ({}, [2.0314, -2.318712, 0.526531, -0.490939], [2.030745, -2.317978, 0.526361],
     [4.971924, -4.042326, 1.789946, -0.146428], [[0.010439, 0.013892], [1.039415, 1.040435]]),
    ({"epsilon": 1e-6, "momentum": 0.9}, [2.031618, -2.318957, 0.526588, -0.490991], [2.031618, -2.318956, 0.526588],
     [4.273374, -3.624653, 1.490365, -0.227355], [[0.098084, 0.13053], [1.360101, 1.369555]]),
    ({"axis": 1}, [1.833206, -1.947902, 0.498289, -0.312677], [1.832741, -1.947408, 0.498163],
     [4.93252, -4.006902, 1.776465, -0.140849], [[0.009308, 0.013327, 0.013862], [1.056576, 1.054071, 1.011528]]),
]


@pytest.mark.parametrize("kwargs, y, y2, z, moving", _KERAS_CASES)
def test_keras_batch_normalization_matches_tf_keras(kwargs, y, y2, z, moving):
    x = (np.random.default_rng(3).standard_normal((4, 3, 3, 2)) * 2 + 1).astype(np.float32)
    bn = tf.keras.layers.BatchNormalization(**kwargs)
    np.testing.assert_allclose(bn(x, training=True).numpy().ravel()[:4], y, atol=2e-6)
    np.testing.assert_allclose(bn(x * 0.5, training=True).numpy().ravel()[:3], y2, atol=2e-6)
    np.testing.assert_allclose(bn(x, training=False).numpy().ravel()[:4], z, atol=2e-6)
    np.testing.assert_allclose([w.numpy() for w in bn.weights[-2:]], moving, atol=2e-6)


def test_keras_fused_argument():
    with pytest.raises(ValueError, match="only support 4D or 5D input tensors"):
        tf.keras.layers.BatchNormalization(fused=True)(tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="Unsupported axis"):
        tf.keras.layers.BatchNormalization(axis=2, fused=True)(tf.zeros([2, 3, 4, 5]))
    x = np.random.default_rng(4).standard_normal((2, 3, 3, 2)).astype(np.float32)
    fused, plain = tf.keras.layers.BatchNormalization(), tf.keras.layers.BatchNormalization(fused=False)
    np.testing.assert_allclose(fused(x, training=True).numpy(), plain(x, training=True).numpy(), atol=1e-5)
    np.testing.assert_allclose(fused.moving_variance.numpy(), plain.moving_variance.numpy(), rtol=1e-6)


def test_gradient_in_a_function_matches_eager():
    x = tf.Variable(X)
    scale = tf.Variable(SCALE)

    def loss_and_grads():
        with tf.GradientTape() as tape:
            y, _, _ = tf.compat.v1.nn.fused_batch_norm(x, scale, OFFSET)
            loss = tf.reduce_sum(y * tf.sin(y))
        return tape.gradient(loss, [x, scale])

    for got, want in zip(tf.function(loss_and_grads)(), loss_and_grads()):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-6)


def test_keras_batch_normalization_trains_in_a_function():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(4, 3, input_shape=(6, 6, 2)),
                                 tf.keras.layers.BatchNormalization(), tf.keras.layers.GlobalAveragePooling2D(),
                                 tf.keras.layers.Dense(1)])
    x = tf.constant(np.random.default_rng(5).standard_normal((8, 6, 6, 2)).astype(np.float32))
    target = tf.ones([8, 1])
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - target) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    losses = [float(step()) for _ in range(10)]
    assert losses[-1] < losses[0]
    bn = model.layers[1]
    assert not np.allclose(bn.moving_mean.numpy(), 0.0)  # the moving statistics moved inside the function
