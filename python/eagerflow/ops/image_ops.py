"""tf.image basics: resize (ResizeBilinear / ResizeNearestNeighbor with half-pixel centers, as TF 2's
resize), flips, rot90, dtype conversion and per-pixel adjustments composed from existing ops."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.ops import Tensor
from eagerflow.ops import array_ops, control_flow_ops, einsum_ops, math_ops, reduction_ops
from eagerflow.ops._execute import convert_to_tensor as fast_convert
from eagerflow.ops._execute import execute1


class ResizeMethod:
    """tf.image.ResizeMethod: the method names resize accepts."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _rank(image):
    return image.shape.rank


def _at_least_3d(image):
    rank = _rank(image)
    if rank is not None and rank < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    return rank


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False, name=None):
    """tf.image.resize: float32 for bilinear, the input dtype for nearest."""
    images = convert_to_tensor(images)
    rank = _rank(images)
    if rank is None:
        raise ValueError("'images' contains no shape.")
    if rank not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    if rank == 3:
        images = array_ops.expand_dims(images, 0)
    try:
        checked = convert_to_tensor(size, dtype=dtypes.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    # A Python size becomes a graph constant while tracing, so the output's static shape is known.
    static = not isinstance(size, Tensor) and not checked._is_symbolic
    size = fast_convert(checked.numpy(), dtypes.int32._type_enum) if static else checked
    if not size.shape.is_compatible_with([2]):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if preserve_aspect_ratio:
        size = _aspect_preserving_size(images, size)
    if method == ResizeMethod.BILINEAR:
        if antialias:
            raise NotImplementedError("tf.image.resize with antialias=True (ScaleAndTranslate) is not implemented")
        out = execute1("ResizeBilinear", [images, size], {"half_pixel_centers": True})
    elif method == ResizeMethod.NEAREST_NEIGHBOR:
        out = execute1("ResizeNearestNeighbor", [images, size], {"half_pixel_centers": True})
    elif method in (ResizeMethod.BICUBIC, ResizeMethod.AREA, ResizeMethod.LANCZOS3, ResizeMethod.LANCZOS5,
                    ResizeMethod.GAUSSIAN, ResizeMethod.MITCHELLCUBIC):
        raise NotImplementedError(f"tf.image.resize method {method!r} is not implemented")
    else:
        raise ValueError(f"Resize method is not implemented: {method}")
    return array_ops.squeeze(out, axis=[0]) if rank == 3 else out


def _aspect_preserving_size(images, size):
    # TF's float32 arithmetic: the smaller scale factor, rounded half to even.
    shape = math_ops.cast(array_ops.shape(images)[1:3], dtypes.float32)
    factors = math_ops.cast(size, dtypes.float32) / shape
    scale = reduction_ops.reduce_min(factors)
    return math_ops.cast(math_ops.round(scale * shape), dtypes.int32)


def _flip(image, axis):
    image = convert_to_tensor(image)
    rank = _at_least_3d(image)
    if rank == 3:
        return array_ops.reverse(image, [axis])
    if rank == 4:
        return array_ops.reverse(image, [axis + 1])
    raise ValueError(f"'image' (shape {image.shape})must have either 3 or 4 dimensions.")


def flip_left_right(image):
    """tf.image.flip_left_right: reverses the width axis."""
    return _flip(image, 1)


def flip_up_down(image):
    """tf.image.flip_up_down: reverses the height axis."""
    return _flip(image, 0)


def rot90(image, k=1, name=None):
    """tf.image.rot90: rotates counter-clockwise by 90 degrees k times."""
    image = convert_to_tensor(image)
    rank = _at_least_3d(image)
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    k = convert_to_tensor(k, dtype=dtypes.int32)
    if k.shape.rank not in (None, 0):
        raise ValueError(f"Shape {k.shape} must have rank 0")
    k = math_ops.floormod(k, 4)
    h, w = rank - 3, rank - 2  # the height and width axes
    perm = list(range(rank))
    perm[h], perm[w] = w, h

    def rot90_():
        return array_ops.transpose(array_ops.reverse(image, [w]), perm)

    def rot180():
        return array_ops.reverse(image, [h, w])

    def rot270():
        return array_ops.reverse(array_ops.transpose(image, perm), [w])

    cases = [(math_ops.equal(k, 1), rot90_), (math_ops.equal(k, 2), rot180), (math_ops.equal(k, 3), rot270)]
    return control_flow_ops.case(cases, default=lambda: image, exclusive=True)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """tf.image.convert_image_dtype: floats span [0, 1], integers [0, dtype.max]."""
    image = convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    src = image.dtype
    if not src.is_floating and not src.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == src:
        return array_ops.identity(image)
    cast = math_ops.saturate_cast if saturate else math_ops.cast
    if src.is_integer and dtype.is_integer:
        if src.max > dtype.max:
            # Dividing first maps src.max into [dtype.max, dtype.max + 1), so the cast cannot overflow.
            scale = (src.max + 1) // (dtype.max + 1)
            return cast(execute1("FloorDiv", [image, convert_to_tensor(scale, dtype=src)]), dtype)
        scale = (dtype.max + 1) // (src.max + 1)
        return execute1("Mul", [cast(image, dtype), convert_to_tensor(scale, dtype=dtype)])
    if src.is_floating and dtype.is_floating:
        return math_ops.cast(image, dtype)
    if src.is_integer:
        return execute1("Mul", [math_ops.cast(image, dtype), convert_to_tensor(1.0 / src.max, dtype=dtype)])
    # The + 0.5 rounds the largest float values to dtype.max instead of truncating below it.
    return cast(execute1("Mul", [image, convert_to_tensor(dtype.max + 0.5, dtype=src)]), dtype)


def per_image_standardization(image):
    """tf.image.per_image_standardization: (x - mean) / max(stddev, 1 / sqrt(pixels)), float32."""
    image = convert_to_tensor(image)
    _at_least_3d(image)
    image = math_ops.cast(image, dtypes.float32)
    num_pixels = reduction_ops.reduce_prod(array_ops.shape(image)[-3:])
    mean = reduction_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    stddev = reduction_ops.reduce_std(image, axis=[-1, -2, -3], keepdims=True)
    min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, dtypes.float32))
    return math_ops.divide(image - mean, math_ops.maximum(stddev, min_stddev))


def adjust_brightness(image, delta):
    """tf.image.adjust_brightness: adds delta in float, converted back with saturation."""
    image = convert_to_tensor(image)
    orig = image.dtype
    flt = image if orig in (dtypes.float16, dtypes.float32) else convert_image_dtype(image, dtypes.float32)
    adjusted = math_ops.add(flt, math_ops.cast(delta, flt.dtype))
    return convert_image_dtype(adjusted, orig, saturate=True)


def rgb_to_grayscale(images, name=None):
    """tf.image.rgb_to_grayscale: ITU-R 601 luma weights over the last axis, kept as a size-1 axis."""
    images = convert_to_tensor(images)
    orig = images.dtype
    flt = convert_image_dtype(images, dtypes.float32)
    gray = einsum_ops.tensordot(flt, [0.2989, 0.5870, 0.1140], [-1, -1])
    return convert_image_dtype(array_ops.expand_dims(gray, -1), orig)
