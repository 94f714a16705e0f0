"""tf.image namespace."""
from eagerflow.ops.image_crop_ops import central_crop, resize_with_crop_or_pad
from eagerflow.ops.image_ops import (ResizeMethod, adjust_brightness, convert_image_dtype, flip_left_right, flip_up_down,
                                     per_image_standardization, resize, rgb_to_grayscale, rot90)

__all__ = ["ResizeMethod", "adjust_brightness", "central_crop", "convert_image_dtype", "flip_left_right", "flip_up_down",
           "per_image_standardization", "resize", "resize_with_crop_or_pad", "rgb_to_grayscale",
           "rot90"]
