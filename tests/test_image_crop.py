"""tf.image.central_crop and resize_with_crop_or_pad; expected windows and paddings are TF 2.21's."""
import numpy as np
import pytest

import eagerflow as tf

IMG = np.arange(5 * 7 * 2, dtype=np.float32).reshape(5, 7, 2)
BATCH = np.arange(2 * 4 * 6 * 1, dtype=np.int32).reshape(2, 4, 6, 1)


def _exact(got, want):
    assert got.dtype == tf.as_dtype(want.dtype) and tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("fraction, rows, cols", [
    (0.5, slice(1, 4), slice(1, 6)), (0.3, slice(1, 4), slice(2, 5)), (0.9, slice(0, 5), slice(0, 7)),
    (0.01, slice(2, 3), slice(3, 4)), (1.0, slice(None), slice(None))])
def test_central_crop_matches_tf(fraction, rows, cols):
    _exact(tf.image.central_crop(IMG, fraction), IMG[rows, cols])
    _exact(tf.image.central_crop(tf.constant(IMG), tf.constant(fraction)), IMG[rows, cols])


def test_central_crop_of_a_batch():
    _exact(tf.image.central_crop(BATCH, 0.3), np.int32([8, 9, 14, 15, 32, 33, 38, 39]).reshape(2, 2, 2, 1))


@pytest.mark.parametrize("image, h, w, want", [
    (IMG, 3, 3, IMG[1:4, 2:5]),
    (IMG, 8, 9, np.pad(IMG, [(1, 2), (1, 1), (0, 0)])),
    (IMG, 5, 7, IMG),
    (IMG, 2, 10, np.pad(IMG[1:3], [(0, 0), (1, 2), (0, 0)])),
    (IMG, 1, 1, IMG[2:3, 3:4]),
    (BATCH, 2, 10, np.pad(BATCH[:, 1:3], [(0, 0), (0, 0), (2, 2), (0, 0)])),
    (BATCH, 9, 4, np.pad(BATCH[:, :, 1:5], [(0, 0), (2, 3), (0, 0), (0, 0)])),
])
def test_resize_with_crop_or_pad_matches_tf(image, h, w, want):
    _exact(tf.image.resize_with_crop_or_pad(image, h, w), want)


def test_crops_in_tf_function_with_tensor_sizes():
    @tf.function
    def f(image, h, w, fraction):
        return tf.image.resize_with_crop_or_pad(image, h, w), tf.image.central_crop(image, fraction)

    padded, cropped = f(tf.constant(IMG), tf.constant(8), tf.constant(2), tf.constant(0.4))
    _exact(padded, np.pad(IMG[:, 2:4], [(1, 2), (0, 0), (0, 0)]))
    _exact(cropped, IMG[1:4, 2:5])


@pytest.mark.parametrize("call, message", [
    (lambda: tf.image.central_crop(IMG, 0.0), "central_fraction must be within (0, 1]"),
    (lambda: tf.image.central_crop(IMG, 1.5), "central_fraction must be within (0, 1]"),
    (lambda: tf.image.central_crop(np.ones([2, 2]), 0.5), "'image' (shape (2, 2)) must be at least three-dimensional."),
    (lambda: tf.image.central_crop(np.ones([1, 1, 2, 2, 1]), 0.5),
     "`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = 5."),
    (lambda: tf.image.resize_with_crop_or_pad(IMG, 0, 3), "target_height must be > 0."),
    (lambda: tf.image.resize_with_crop_or_pad(IMG, 3, -1), "target_width must be > 0."),
    (lambda: tf.image.resize_with_crop_or_pad(np.ones([2, 2]), 3, 3),
     "'image' (shape (2, 2)) must have either 3 or 4 dimensions."),
    (lambda: tf.image.resize_with_crop_or_pad(np.ones([0, 2, 1]), 3, 3),
     "inner 3 dims of 'image.shape' must be > 0: (1, 0, 2, 1)"),
])
def test_crop_errors_match_tf(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message
