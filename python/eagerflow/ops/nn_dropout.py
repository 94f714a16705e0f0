"""tf.nn.dropout: zeros elements with probability `rate` and scales the rest by 1 / (1 - rate)."""
import numbers

from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.ops import array_ops, math_ops, random_ops


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Each element of x is kept with probability 1 - rate (scaled up by 1 / (1 - rate)), else 0."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype={x.dtype}")
    if isinstance(rate, numbers.Real) and not isinstance(rate, bool):
        if not 0 <= rate < 1:
            raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
        if rate == 0:
            return x
    rate = math_ops.cast(rate if isinstance(rate, Tensor) else convert_to_tensor(rate), x.dtype)
    shape = array_ops.shape(x) if noise_shape is None else noise_shape
    keep = random_ops.uniform(shape, dtype=x.dtype, seed=seed) >= rate
    return x * (1.0 / (1.0 - rate)) * math_ops.cast(keep, x.dtype)
