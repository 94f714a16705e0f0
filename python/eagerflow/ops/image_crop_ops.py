"""tf.image crops and pads: central_crop and resize_with_crop_or_pad, as Slice and Pad over the
height and width axes (TF's arithmetic on Python ints where the sizes are static)."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.ops import Tensor
from eagerflow.ops import array_ops, math_ops, slice_ops


def _static(x):
    """x as a Python number when known now (a Python value or an eager tensor), else None."""
    if isinstance(x, Tensor):
        return None if x._is_symbolic else x.numpy().item()
    return x


def _dims(image, axes):
    """The sizes of `axes`: ints where static, scalar int32 tensors otherwise."""
    shape = None
    out = []
    for axis in axes:
        d = image.shape[axis]
        if d is None:
            shape = array_ops.shape(image) if shape is None else shape
            d = shape[axis]
        out.append(d)
    return out


def central_crop(image, central_fraction):
    """tf.image.central_crop: the central `central_fraction` of each image's height and width."""
    image = convert_to_tensor(image)
    fraction = _static(central_fraction)
    if fraction is not None:
        if fraction <= 0.0 or fraction > 1.0:
            raise ValueError("central_fraction must be within (0, 1]")
        if fraction == 1.0:
            return image
    rank = image.shape.rank
    if rank is not None and rank < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    if rank not in (3, 4):
        raise ValueError(f"`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {rank}.")
    begin, size = [0] * (rank - 3), [-1] * (rank - 3)
    for d in _dims(image, (rank - 3, rank - 2)):
        if isinstance(d, int) and fraction is not None:
            start = int((float(d) - float(d) * fraction) / 2)
        else:
            df = math_ops.cast(d, dtypes.float64)
            start = math_ops.cast((df - df * math_ops.cast(central_fraction, dtypes.float64)) / 2, dtypes.int32)
        begin.append(start)
        size.append(d - start * 2)
    begin.append(0)
    size.append(-1)
    if any(isinstance(v, Tensor) for v in begin + size):
        begin, size = array_ops.stack(begin), array_ops.stack(size)
    return slice_ops.slice(image, begin, size)


def _op(python_fn, tensor_fn):
    def apply(x, y):
        return tensor_fn(x, y) if isinstance(x, Tensor) or isinstance(y, Tensor) else python_fn(x, y)
    return apply


_max, _min = _op(max, math_ops.maximum), _op(min, math_ops.minimum)


def resize_with_crop_or_pad(image, target_height, target_width):
    """tf.image.resize_with_crop_or_pad: crops or zero-pads each image evenly around its center."""
    image = convert_to_tensor(image)
    rank = image.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    if rank == 3:
        image = array_ops.expand_dims(image, 0)
    for name, target in (("target_width", target_width), ("target_height", target_height)):
        value = _static(target)
        if value is not None and not value > 0:
            raise ValueError(f"{name} must be > 0.")
    height, width = _dims(image, (1, 2))
    if 0 in image.shape.as_list()[1:]:
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {image.shape}")
    width_diff, height_diff = target_width - width, target_height - height
    crop_h, crop_w = _max(-height_diff // 2, 0), _max(-width_diff // 2, 0)
    pad_h, pad_w = _max(height_diff // 2, 0), _max(width_diff // 2, 0)
    begin, size = [0, crop_h, crop_w, 0], [-1, _min(target_height, height), _min(target_width, width), -1]
    if any(isinstance(v, Tensor) for v in begin + size):
        begin, size = array_ops.stack(begin), array_ops.stack(size)
    cropped = slice_ops.slice(image, begin, size)
    cropped_h, cropped_w = _dims(cropped, (1, 2))
    paddings = [[0, 0], [pad_h, target_height - pad_h - cropped_h], [pad_w, target_width - pad_w - cropped_w], [0, 0]]
    if any(isinstance(v, Tensor) for row in paddings for v in row):
        paddings = array_ops.stack([array_ops.stack(row) for row in paddings])
    out = array_ops.pad(cropped, paddings)
    return array_ops.squeeze(out, axis=[0]) if rank == 3 else out
