"""tf.image namespace."""
from eagerflow.ops.image_ops import (ResizeMethod, adjust_brightness, convert_image_dtype, flip_left_right, flip_up_down,
                                     per_image_standardization, resize, rgb_to_grayscale, rot90)

__all__ = ["ResizeMethod", "adjust_brightness", "convert_image_dtype", "flip_left_right", "flip_up_down",
           "per_image_standardization", "resize", "rgb_to_grayscale", "rot90"]
