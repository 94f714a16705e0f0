"""tf.image: resize (ResizeBilinear / ResizeNearestNeighbor and gradients), flips, rot90,
convert_image_dtype and the per-pixel adjustments, against values from TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from tests import gradient_checker

X = (np.arange(12, dtype=np.float32).reshape(1, 2, 3, 2) * 0.37 - 1.1)
SQ = (np.arange(16, dtype=np.float32).reshape(4, 4, 1) * 0.5)
U8 = (np.arange(12) * 21).astype(np.uint8).reshape(2, 3, 2)
UP_GRAD = np.linspace(-1, 1, 30).astype(np.float32).reshape(1, 3, 5, 2)

# ---- TF 2.21 outputs (tf.image.resize and its tape gradients) ----
BILINEAR_UP = np.float32([
    -1.1, -0.73, -0.804, -0.434, -0.36, 0.00999999, 0.08400011, 0.45400012, 0.38, 0.75, 0.00999999, 0.3800001,
    0.306, 0.676, 0.75, 1.12, 1.1940001, 1.5640002, 1.4899999, 1.8600001, 1.12, 1.4900001, 1.416, 1.7860001, 1.86,
    2.23, 2.3040001, 2.6740003, 2.6, 2.9700003]).reshape(1, 3, 5, 2)
BILINEAR_DOWN = np.float32([0.5833334, 1.5833334, 3.25, 4.25, 5.916667, 6.916667]).reshape(3, 2, 1)
BILINEAR_UINT8 = np.float32([
    0.0, 21.0, 26.25, 47.25, 57.75, 78.75, 84.0, 105.0, 63.0, 84.0, 89.25, 110.25, 120.75, 141.75, 147.0, 168.0,
    126.0, 147.0, 152.25, 173.25, 183.75, 204.75, 210.0, 231.0]).reshape(3, 4, 2)
BILINEAR_ASPECT = np.float32([1.25, 2.25, 5.25, 6.25]).reshape(2, 2, 1)
NEAREST_UP = np.float32([
    -1.1, -0.73, -1.1, -0.73, -0.36, 0.00999999, 0.38, 0.75, 0.38, 0.75, 1.12, 1.4900001, 1.12, 1.4900001, 1.86,
    2.23, 2.6, 2.9700003, 2.6, 2.9700003, 1.12, 1.4900001, 1.12, 1.4900001, 1.86, 2.23, 2.6, 2.9700003, 2.6,
    2.9700003]).reshape(1, 3, 5, 2)
NEAREST_DOWN_UINT8 = np.uint8([126, 147, 210, 231]).reshape(1, 2, 2)
BILINEAR_GRAD = np.float32([
    -1.7241378, -1.5586207, -1.3344826, -1.1482759, -0.648276, -0.4827586, 0.48275858, 0.64827585, 1.1482759,
    1.3344827, 1.5586209, 1.724138]).reshape(1, 2, 3, 2)
NEAREST_GRAD = np.float32([
    -1.8620689, -1.724138, -0.7241379, -0.6551724, -1.0344827, -0.8965517, 0.4137931, 0.6896552, 0.62068963,
    0.7586207, 2.0689657, 2.3448277]).reshape(1, 2, 3, 2)
BILINEAR_GRAD_DOWN = np.float32([
    0.41666666, 0.41666666, 0.8333333, 0.8333333, -0.16666666, -0.16666666, 0.2916667, 0.2916667, -2.3841858e-07,
    -2.3841858e-07, -0.041666508, -0.041666508, 1.2500002, 1.2500002, -0.8333335, -0.8333335]).reshape(4, 4, 1)

# ---- TF 2.21 outputs of the dtype conversions and adjustments ----
I32 = np.array([0, 2**24, 2**31 - 1, -5, -2**31], np.int32)
FL = np.array([0, 0.5, 0.999, 1.0, 1.2, -0.1], np.float32)
IMG_U8 = (np.arange(2 * 2 * 3) * 37 % 256).astype(np.uint8).reshape(2, 2, 3)
IMG_F = (np.arange(12) * 0.173 % 1).astype(np.float32).reshape(2, 2, 3)
U8_TO_FLOAT32 = np.float32([0.0, 0.003921569, 0.5019608, 1.0]).reshape(4,)
U8_TO_INT32 = np.int32([0, 8388608, 1073741824, 2139095040]).reshape(4,)
U8_TO_INT8 = np.int8([0, 0, 64, 127]).reshape(4,)
INT32_TO_U8 = np.uint8([0, 2, 255, 255, 0]).reshape(5,)
INT32_TO_U8_SATURATE = np.uint8([0, 2, 255, 0, 0]).reshape(5,)
FLOAT32_TO_U8 = np.uint8([0, 127, 255, 255, 50, 231]).reshape(6,)
FLOAT32_TO_U8_SATURATE = np.uint8([0, 127, 255, 255, 255, 0]).reshape(6,)
FLOAT64_TO_INT16 = np.int16([0, 8191, 16383, 32767, -32767]).reshape(5,)
STANDARDIZED_U8 = np.float32([
    -1.4252317, -0.88065094, -0.33607015, 0.20851062, 0.7530914, 1.2976722, 1.842253, -1.3810766, -0.83649576,
    -0.29191497, 0.25266582, 0.79724663]).reshape(2, 2, 3)
STANDARDIZED_FLOAT = np.float32([
    -1.5250077, -0.9406747, -0.35634175, 0.2279913, 0.8123242, 1.3966573, -1.3966572, -0.81232417, -0.22799109,
    0.35634187, 0.940675, 1.525008]).reshape(2, 2, 3)
BRIGHTER_U8 = np.uint8([76, 113, 150, 187, 224, 255, 255, 79, 116, 153, 190, 227]).reshape(2, 2, 3)
DARKER_U8 = np.uint8([0, 0, 0, 0, 20, 57, 94, 0, 0, 0, 0, 23]).reshape(2, 2, 3)
GRAY_U8 = np.uint8([30, 141, 72, 107]).reshape(2, 2, 1)
GRAY_FLOAT = np.float32([0.140995, 0.65994304, 0.1789912, 0.6979393]).reshape(2, 2, 1)


def _close(got, want):
    # Reductions may sum in another order than TF's.
    assert got.dtype == tf.as_dtype(want.dtype) and tuple(got.shape) == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, atol=1e-6)


def _exact(got, want):
    assert got.dtype == tf.as_dtype(want.dtype) and tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("make, want", [
    (lambda: tf.image.resize(X, [3, 5]), BILINEAR_UP),
    (lambda: tf.image.resize(SQ, [3, 2]), BILINEAR_DOWN),
    (lambda: tf.image.resize(U8, [3, 4]), BILINEAR_UINT8),
    (lambda: tf.image.resize(U8.astype(np.float64), [3, 4], method=tf.image.ResizeMethod.BILINEAR), BILINEAR_UINT8),
    (lambda: tf.image.resize(SQ, [2, 6], preserve_aspect_ratio=True), BILINEAR_ASPECT),
    (lambda: tf.image.resize(X, [3, 5], method="nearest"), NEAREST_UP),
    (lambda: tf.image.resize(U8, [1, 2], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR), NEAREST_DOWN_UINT8),
    (lambda: tf.image.resize(U8.astype(np.int32), [1, 2], method="nearest"), NEAREST_DOWN_UINT8.astype(np.int32)),
])
def test_resize_matches_tf(make, want):
    _exact(make(), want)


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64, np.float16, np.float32])
def test_resize_bilinear_of_every_input_dtype_is_float32(dtype):
    _exact(tf.image.resize(U8.astype(dtype), [3, 4]), BILINEAR_UINT8)
    _exact(tf.image.resize(U8.astype(dtype), [1, 2], method="nearest"), NEAREST_DOWN_UINT8.astype(dtype))


def _tape_gradient(image, size, method, upstream):
    x = tf.constant(image)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, size, method=method)
    return tape.gradient(y, x, output_gradients=upstream)


def test_resize_gradients_match_tf():
    _exact(_tape_gradient(X, [3, 5], "bilinear", UP_GRAD), BILINEAR_GRAD)
    _exact(_tape_gradient(X, [3, 5], "nearest", UP_GRAD), NEAREST_GRAD)
    down = np.float32([[[1.], [2.]], [[-1.], [0.5]], [[3.], [-2.]]])
    _exact(_tape_gradient(SQ, [3, 2], "bilinear", down), BILINEAR_GRAD_DOWN)
    # float64 sums the float contributions in double; half sums in float and rounds once (as TF).
    _close(_tape_gradient(X.astype(np.float64), [3, 5], "bilinear", UP_GRAD), BILINEAR_GRAD.astype(np.float64))
    _exact(_tape_gradient(X.astype(np.float16), [3, 5], "bilinear", UP_GRAD), BILINEAR_GRAD.astype(np.float16))


@pytest.mark.parametrize("attrs", [{"half_pixel_centers": True}, {"align_corners": True}, {}])
@pytest.mark.parametrize("in_hw, size", [((3, 4), [5, 3]), ((4, 3), [2, 5]), ((1, 2), [3, 1])])
def test_resize_bilinear_gradient_numerically(attrs, in_hw, size):
    # The op is linear in its input, so a wide step is exact up to float32 output rounding.
    image = np.random.default_rng(3).standard_normal((2, *in_hw, 2))
    gradient_checker.check_gradients("ResizeBilinear", [image, np.int32(size)], attrs, wrt=[0], delta=0.5,
                                     atol=2e-6, rtol=1e-5)


def test_resize_bilinear_matches_numpy_reference():
    # TF 2's sampling: source coordinate (i + 0.5) * in / out - 0.5, clamped, interpolated in float.
    rng = np.random.default_rng(5)
    for shape, size in [((2, 5, 7, 3), (3, 11)), ((1, 1, 4, 1), (6, 2)), ((3, 8, 8, 2), (8, 8))]:
        image = rng.standard_normal(shape).astype(np.float32)

        def weights(n_in, n_out):
            pos = np.maximum((np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5, -1)
            lo = np.floor(pos)
            lerp = pos - lo
            return np.maximum(lo, 0).astype(int), np.minimum(np.ceil(pos), n_in - 1).astype(int), lerp

        y0, y1, ly = weights(shape[1], size[0])
        x0, x1, lx = weights(shape[2], size[1])
        ly, lx = ly[None, :, None, None], lx[None, None, :, None]
        top = image[:, y0][:, :, x0] * (1 - lx) + image[:, y0][:, :, x1] * lx
        bottom = image[:, y1][:, :, x0] * (1 - lx) + image[:, y1][:, :, x1] * lx
        np.testing.assert_allclose(tf.image.resize(image, size).numpy(), top * (1 - ly) + bottom * ly, atol=1e-5)


def test_resize_in_tf_function_keeps_static_shapes():
    @tf.function
    def f(image, h):
        return tf.image.resize(image, [4, 3]), tf.image.resize(image, [h, 3], method="nearest")

    cf = f.get_concrete_function(tf.TensorSpec([None, None, 3]), tf.TensorSpec([], tf.int32))
    assert cf.outputs[0].shape.as_list() == [4, 3, 3]  # TF also keeps the 3 of [h, 3]: not yet
    a, b = f(tf.constant(X[0]), tf.constant(3))
    _close(tf.expand_dims(a, 0), tf.image.resize(X, [4, 3]).numpy())
    _exact(tf.expand_dims(b, 0), NEAREST_UP[:, :, [0, 2, 4]])


def test_resize_gradient_in_tf_function():
    @tf.function
    def f(image, upstream):
        with tf.GradientTape() as tape:
            tape.watch(image)
            y = tf.image.resize(image, [3, 5])
        return tape.gradient(y, image, output_gradients=upstream)

    _exact(f(tf.constant(X), tf.constant(UP_GRAD)), BILINEAR_GRAD)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.image.resize(np.ones([2, 2]), [3, 3]), ValueError, "'images' must have either 3 or 4 dimensions."),
    (lambda: tf.image.resize(np.ones([1, 1, 2, 2, 1]), [3, 3]), ValueError,
     "'images' must have either 3 or 4 dimensions."),
    (lambda: tf.image.resize(X, [3]), ValueError, "'size' must be a 1-D Tensor of 2 elements: new_height, new_width"),
    (lambda: tf.image.resize(X, [3.5, 2.0]), ValueError, "'size' must be a 1-D int32 Tensor"),
    (lambda: tf.image.resize(X, [3, 3], method="foo"), ValueError, "Resize method is not implemented: foo"),
    (lambda: tf.image.resize(X, [0, 2]), tf.errors.InvalidArgumentError, "output dimensions must be positive"),
    (lambda: tf.image.resize(np.ones([2, 2, 1], bool), [3, 3]), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of bool is not in the list of allowed values"),
    (lambda: tf.raw_ops.ResizeBilinear(images=np.ones([2, 2, 1], np.float32), size=[3, 3]),
     tf.errors.InvalidArgumentError, "input must be 4-dimensional[2,2,1]"),
    (lambda: tf.raw_ops.ResizeBilinear(images=X, size=[[3, 3]]), tf.errors.InvalidArgumentError,
     "shape_t must be 1-dimensional[1,2]"),
    (lambda: tf.raw_ops.ResizeNearestNeighbor(images=X, size=[3]), tf.errors.InvalidArgumentError,
     "shape_t must have two elements[1]"),
    (lambda: tf.raw_ops.ResizeNearestNeighbor(images=np.ones([1, 0, 2, 1], np.float32), size=[2, 3]),
     tf.errors.InvalidArgumentError, "input image must be of non-zero size"),
    (lambda: tf.raw_ops.ResizeBilinear(images=X, size=[2, 3], align_corners=True, half_pixel_centers=True),
     tf.errors.InvalidArgumentError, "If half_pixel_centers is True, align_corners must be False."),
    (lambda: tf.raw_ops.ResizeBilinearGrad(grads=np.ones([3, 3, 1], np.float32), original_image=X),
     tf.errors.InvalidArgumentError, "input_grad must be 4-dimensional[3,3,1]"),
    (lambda: tf.raw_ops.ResizeBilinearGrad(grads=np.ones([1, 3, 3, 1], np.float32), original_image=X[0]),
     tf.errors.InvalidArgumentError, "original_image must be 4-dimensional[2,3,2]"),
    (lambda: tf.raw_ops.ResizeBilinearGrad(grads=np.ones([1, 0, 2, 1], np.float32), original_image=X),
     tf.errors.InvalidArgumentError, "resized dimensions must be positive"),
    (lambda: tf.raw_ops.ResizeBilinearGrad(grads=np.ones([1, 2, 2, 1], np.float32),
                                           original_image=np.ones([1, 0, 2, 1], np.float32)),
     tf.errors.InvalidArgumentError, "original dimensions must be positive"),
    (lambda: tf.raw_ops.ResizeNearestNeighborGrad(grads=np.ones([1, 3, 3, 1], np.float32), size=[0, 2]),
     tf.errors.InvalidArgumentError, "shape_t's elements must be positive"),
    (lambda: tf.image.flip_left_right(np.ones([2, 2])), ValueError,
     "'image' (shape (2, 2)) must be at least three-dimensional."),
    (lambda: tf.image.flip_up_down(np.ones([1, 1, 2, 2, 1])), ValueError,
     "'image' (shape (1, 1, 2, 2, 1))must have either 3 or 4 dimensions."),
    (lambda: tf.image.rot90(np.ones([1, 1, 2, 2, 1])), ValueError,
     "'image' (shape (1, 1, 2, 2, 1)) must have either 3 or 4 dimensions."),
    (lambda: tf.image.rot90(X, [1, 2]), ValueError, "Shape (2,) must have rank 0"),
    (lambda: tf.image.per_image_standardization(np.ones([2, 2])), ValueError,
     "'image' (shape (2, 2)) must be at least three-dimensional."),
    (lambda: tf.image.convert_image_dtype(X, tf.bool), AttributeError, "dtype must be either floating point or integer"),
    (lambda: tf.image.convert_image_dtype(np.array([True]), tf.float32), AttributeError,
     "image dtype must be either floating point or integer"),
])
def test_errors_match_tf(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


@pytest.mark.parametrize("image", [U8, X, IMG_F.astype(np.float64)])
def test_flips_and_rot90_match_numpy(image):
    h = image.ndim - 3
    _exact(tf.image.flip_left_right(image), np.flip(image, h + 1))
    _exact(tf.image.flip_up_down(image), np.flip(image, h))
    for k in range(-5, 6):
        _exact(tf.image.rot90(image, k), np.rot90(image, k, axes=(h, h + 1)))


def test_rot90_with_a_tensor_k_in_tf_function():
    @tf.function
    def f(image, k):
        return tf.image.rot90(image, k), tf.image.flip_left_right(image)

    for k in range(4):
        r, flipped = f(tf.constant(U8), tf.constant(k))
        _exact(r, np.rot90(U8, k))
        _exact(flipped, U8[:, ::-1])


@pytest.mark.parametrize("make, want", [
    (lambda: tf.image.convert_image_dtype(np.uint8([0, 1, 128, 255]), tf.float32), U8_TO_FLOAT32),
    (lambda: tf.image.convert_image_dtype(np.uint8([0, 1, 128, 255]), tf.int32), U8_TO_INT32),
    (lambda: tf.image.convert_image_dtype(np.uint8([0, 1, 128, 255]), tf.int8), U8_TO_INT8),
    (lambda: tf.image.convert_image_dtype(I32, tf.uint8), INT32_TO_U8),
    (lambda: tf.image.convert_image_dtype(I32, tf.uint8, saturate=True), INT32_TO_U8_SATURATE),
    (lambda: tf.image.convert_image_dtype(FL, tf.uint8), FLOAT32_TO_U8),
    (lambda: tf.image.convert_image_dtype(FL, tf.uint8, saturate=True), FLOAT32_TO_U8_SATURATE),
    (lambda: tf.image.convert_image_dtype(np.float64([0, 0.25, 0.5, 1.0, -1.0]), tf.int16), FLOAT64_TO_INT16),
    (lambda: tf.image.convert_image_dtype(FL, tf.float64), FL.astype(np.float64)),
    (lambda: tf.image.convert_image_dtype(FL, tf.float32), FL),
    (lambda: tf.image.per_image_standardization(IMG_U8), STANDARDIZED_U8),
    (lambda: tf.image.adjust_brightness(IMG_U8, 0.3), BRIGHTER_U8),
    (lambda: tf.image.adjust_brightness(IMG_U8, -0.5), DARKER_U8),
    (lambda: tf.image.rgb_to_grayscale(IMG_U8), GRAY_U8),
])
def test_conversions_match_tf_exactly(make, want):
    _exact(make(), want)


def test_float_adjustments_match_tf():
    _close(tf.image.per_image_standardization(IMG_F), STANDARDIZED_FLOAT)
    _close(tf.image.rgb_to_grayscale(IMG_F), GRAY_FLOAT)
    _exact(tf.image.adjust_brightness(IMG_F, 0.25), IMG_F + np.float32(0.25))


def test_image_functions_trace():
    @tf.function
    def f(image):
        return (tf.image.convert_image_dtype(image, tf.float32), tf.image.per_image_standardization(image),
                tf.image.adjust_brightness(image, 0.3), tf.image.rgb_to_grayscale(image))

    converted, standardized, brighter, gray = f(tf.constant(IMG_U8))
    _exact(standardized, STANDARDIZED_U8)
    _exact(brighter, BRIGHTER_U8)
    _exact(gray, GRAY_U8)
    _exact(converted, IMG_U8.astype(np.float32) * np.float32(1 / 255))
