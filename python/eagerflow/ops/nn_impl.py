"""tf.nn losses, normalization and activations: the cross entropies (SparseSoftmaxCrossEntropyWithLogits,
SoftmaxCrossEntropyWithLogits), l2_loss, leaky_relu, bias_add as ops; gelu, silu, l2_normalize,
moments, batch_normalization and sigmoid_cross_entropy_with_logits composed from ops, as TF does."""
import math

from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops.custom_gradient import stop_gradient
from eagerflow.ops._execute import execute, execute1


def _shape_text(s):
    return str(tuple(s.as_list())) if s.rank is not None else "<unknown>"


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """-log(softmax(logits)[label]) per example; labels are class indices (one rank below logits)."""
    labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
    ls, gs = labels._shape_tuple, logits._shape_tuple
    if ls is not None and gs is not None and len(gs) == 2 and len(ls) == 1 and (
            ls[0] is None or gs[0] is None or ls[0] == gs[0]):  # the common case, checked on tuples
        return execute("SparseSoftmaxCrossEntropyWithLogits", [logits, labels])[0]
    lr, gr = labels.shape.rank, logits.shape.rank
    if lr is not None and gr is not None:
        if lr != gr - 1:
            raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                             f"labels.shape={_shape_text(labels.shape)} of rank {lr} and "
                             f"logits.shape={_shape_text(logits.shape)} of rank {gr}")
        if not labels.shape.is_compatible_with(logits.shape[:-1]):
            raise ValueError(f"`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                             f"labels.shape={_shape_text(labels.shape)} and logits.shape={_shape_text(logits.shape)}")
    if gr == 2:
        return execute("SparseSoftmaxCrossEntropyWithLogits", [logits, labels])[0]
    # Other ranks run on [examples, classes] and take the labels' shape back.
    classes = array_ops.shape(logits)[-1:]
    flat_logits = array_ops.reshape(logits, math_ops.cast(array_ops.concat([[-1], classes], 0), dtypes.int32))
    loss = execute("SparseSoftmaxCrossEntropyWithLogits", [flat_logits, array_ops.reshape(labels, [-1])])[0]
    return array_ops.reshape(loss, array_ops.shape(labels))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log(softmax(logits))) over `axis`; labels are probabilities (gradients flow to them too)."""
    logits = convert_to_tensor(logits)
    labels = math_ops.cast(convert_to_tensor(labels), logits.dtype)
    rank = logits.shape.rank
    axis = axis % rank if rank else axis
    if rank is not None and axis != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        logits, labels = array_ops.transpose(logits, perm), array_ops.transpose(labels, perm)
    if rank == 2:
        return execute("SoftmaxCrossEntropyWithLogits", [logits, labels])[0]
    out_shape = array_ops.shape(logits)[:-1]
    classes = array_ops.shape(logits)[-1:]
    flat = math_ops.cast(array_ops.concat([[-1], classes], 0), dtypes.int32)
    loss = execute("SoftmaxCrossEntropyWithLogits",
                   [array_ops.reshape(logits, flat), array_ops.reshape(labels, flat)])[0]
    return array_ops.reshape(loss, out_shape)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z (stable for any x)."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype=logits.dtype)
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received ({_shape_text(logits.shape)} "
                         f"vs {_shape_text(labels.shape)}).")
    zeros = creation_ops.zeros_like(logits)
    relu_logits = array_ops.where(logits >= zeros, logits, zeros)
    neg_abs = array_ops.where(logits >= zeros, -logits, logits)
    return relu_logits - logits * labels + math_ops.log1p(math_ops.exp(neg_abs))


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    return execute1("L2Loss", [convert_to_tensor(t)])


def leaky_relu(features, alpha=0.2, name=None):
    """features where positive, alpha * features elsewhere."""
    x = convert_to_tensor(features)
    if x.dtype.is_integer:
        x = math_ops.cast(x, dtypes.float32)
    return execute1("LeakyRelu", [x], {"alpha": float(alpha)})


def bias_add(value, bias, data_format=None, name=None):
    """value + bias along the channel dim (the last, or dim 1 for data_format 'NC...')."""
    value = convert_to_tensor(value)
    bias = convert_to_tensor(bias, dtype=value.dtype)
    fmt = "NCHW" if data_format is not None and data_format.startswith("NC") else "NHWC"
    if data_format is not None and not data_format.startswith(("NC", "N")):
        raise ValueError("data_format must be of the form `N...C` or `NC...`")
    return execute1("BiasAdd", [value, bias], {"data_format": fmt})


def gelu(features, approximate=False, name=None):
    """x * P(X <= x) for X ~ N(0, 1): 0.5 x (1 + erf(x / sqrt 2)), or its tanh approximation."""
    x = convert_to_tensor(features)
    if approximate:
        c = math_ops.cast(math.sqrt(2.0 / math.pi), x.dtype)
        return 0.5 * x * (1.0 + math_ops.tanh(c * (x + math_ops.cast(0.044715, x.dtype) * x * x * x)))
    return 0.5 * x * (1.0 + math_ops.erf(x / math_ops.cast(math.sqrt(2.0), x.dtype)))


def silu(features, beta=1.0):
    """x * sigmoid(beta * x) (swish)."""
    x = convert_to_tensor(features)
    return x * math_ops.sigmoid(math_ops.cast(beta, x.dtype) * x)


swish = silu


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    x = convert_to_tensor(x)
    axis = dim if axis is None else axis
    square_sum = reduction_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
    inv = math_ops.rsqrt(math_ops.maximum(square_sum, math_ops.cast(epsilon, x.dtype)))
    return x * inv


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of x over `axes`."""
    x = convert_to_tensor(x)
    y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
    mean = reduction_ops.reduce_mean(y, axes, keepdims=True)
    variance = reduction_ops.reduce_mean(math_ops.squared_difference(y, stop_gradient(mean)), axes,
                                         keepdims=True)
    if not keepdims:
        mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
    if x.dtype == dtypes.float16:
        return math_ops.cast(mean, x.dtype), math_ops.cast(variance, x.dtype)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + epsilon) + offset."""
    x = convert_to_tensor(x)
    inv = math_ops.rsqrt(convert_to_tensor(variance, dtype=x.dtype) + math_ops.cast(variance_epsilon, x.dtype))
    if scale is not None:
        inv = inv * convert_to_tensor(scale, dtype=x.dtype)
    shift = -convert_to_tensor(mean, dtype=x.dtype) * inv
    if offset is not None:
        shift = shift + convert_to_tensor(offset, dtype=x.dtype)
    return x * inv + shift


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC", is_training=True,
                     name=None, exponential_avg_factor=1.0):
    """The FusedBatchNormV3 op (float32 x, channels last or first): (y, batch or running mean, variance).
    Training returns the Bessel-corrected batch variance (moved by exponential_avg_factor when below 1)."""
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError(f"Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and `variance` {variance!r}")
    x = convert_to_tensor(x)
    scale = convert_to_tensor(scale)
    offset = convert_to_tensor(offset)
    empty = convert_to_tensor([], dtype=dtypes.float32)
    mean = empty if mean is None else convert_to_tensor(mean)
    variance = empty if variance is None else convert_to_tensor(variance)
    y, m, v, *_ = execute("FusedBatchNormV3", [x, scale, offset, mean, variance],
                          {"epsilon": float(epsilon), "exponential_avg_factor": float(exponential_avg_factor),
                           "data_format": data_format, "is_training": bool(is_training)}, name)
    return y, m, v
