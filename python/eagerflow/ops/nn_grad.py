"""Gradients of the activation and softmax ops (importing this module registers them).

Written with differentiable ops (SelectV2, Mul, Sum, ...) instead of TF's fused *Grad kernels, so
second derivatives come for free. Sigmoid and Tanh are math ops: their gradients live in math_grad."""
from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute, execute1

# SELU's constants (Klambauer et al.), as in TF's kernel.
_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


def _where(cond, a, b):
    return execute1("SelectV2", [cond, a, b])


_RELU_GRAD_TYPES = ("float16", "float32", "float64")


@RegisterGradient("Relu")
def _relu_grad(op, grad):
    # TF's ReluGrad: the gradient passes where the output is > 0 (so 0 at x == 0).
    y = op.outputs[0]
    if y.dtype.name in _RELU_GRAD_TYPES:
        return [execute1("ReluGrad", [grad, y])]
    return [_where(execute1("Greater", [y, u.scalar_like(0, y)]), grad, u.zeros_like(grad))]


@RegisterGradient("ReluGrad")
def _relu_grad_grad(op, grad):
    x = op.inputs[1]
    return [execute1("ReluGrad", [grad, x]), u.zeros_like(x)]


@RegisterGradient("Relu6")
def _relu6_grad(op, grad):
    y = op.outputs[0]
    inside = execute1("LogicalAnd", [execute1("Greater", [y, u.scalar_like(0, y)]),
                                     execute1("Less", [y, u.scalar_like(6, y)])])
    return [_where(inside, grad, u.zeros_like(grad))]


@RegisterGradient("Elu")
def _elu_grad(op, grad):
    # d/dx = 1 for x > 0, exp(x) = y + 1 otherwise (TF's EluGrad uses the output).
    y = op.outputs[0]
    neg = execute1("Less", [y, u.scalar_like(0, y)])
    return [_where(neg, execute1("Mul", [grad, execute1("AddV2", [y, u.scalar_like(1, y)])]), grad)]


@RegisterGradient("Selu")
def _selu_grad(op, grad):
    y = op.outputs[0]
    neg = execute1("Less", [y, u.scalar_like(0, y)])
    return [_where(neg, execute1("Mul", [grad, execute1("AddV2", [y, u.scalar_like(_SELU_SCALE * _SELU_ALPHA, y)])]),
                   execute1("Mul", [grad, u.scalar_like(_SELU_SCALE, y)]))]


@RegisterGradient("Softplus")
def _softplus_grad(op, grad):
    return [execute1("Mul", [grad, execute1("Sigmoid", [op.inputs[0]])])]


@RegisterGradient("Softmax")
def _softmax_grad(op, grad):
    # (g - sum(g * y, -1)) * y over the last axis (the op's only axis).
    y = op.outputs[0]
    dot = execute1("Sum", [execute1("Mul", [grad, y]), u.const(-1)], {"keep_dims": True})
    return [execute1("Mul", [execute1("Sub", [grad, dot]), y])]


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    # g - sum(g, -1) * softmax, with softmax = exp(log_softmax).
    y = op.outputs[0]
    total = execute1("Sum", [grad, u.const(-1)], {"keep_dims": True})
    return [execute1("Sub", [grad, execute1("Mul", [total, execute1("Exp", [y])])])]


def _times_rows(grad_loss, x):
    """grad_loss [batch] times each row of x [batch, classes]."""
    return execute1("Mul", [execute1("ExpandDims", [grad_loss, u.const(-1)]), x])


def _softmax_jacobian_term(grad_backprop, softmax):
    """The gradient through backprop = softmax(logits) - labels with respect to the logits."""
    dot = execute1("Sum", [execute1("Mul", [grad_backprop, softmax]), u.const(-1)], {"keep_dims": True})
    return execute1("Mul", [execute1("Sub", [grad_backprop, dot]), softmax])


def _add(a, b):
    return b if a is None else (a if b is None else execute1("AddV2", [a, b]))


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, grad_loss, grad_backprop):
    grad = None if grad_loss is None else _times_rows(grad_loss, op.outputs[1])
    if grad_backprop is not None:
        grad = _add(grad, _softmax_jacobian_term(grad_backprop, execute1("Softmax", [op.inputs[0]])))
    return [grad, None]


# The backprop output rarely has a gradient: None there (not zeros) skips the softmax Jacobian term
# (TF skips it for its zeros tensors).
_sparse_xent_grad.accepts_none_gradients = True


@RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op, grad_loss, grad_backprop):
    # A broadcast operand (a dim of 1) gets its gradient summed over that dim.
    logits, labels = op.inputs
    wide = execute1("BroadcastTo", [logits, u.shape(op.outputs[1])])
    grad_logits = grad_labels = None
    if grad_loss is not None:
        grad_logits = _times_rows(grad_loss, op.outputs[1])
        grad_labels = _times_rows(grad_loss, execute1("Neg", [execute1("LogSoftmax", [wide])]))
    if grad_backprop is not None:
        grad_logits = _add(grad_logits, _softmax_jacobian_term(grad_backprop, execute1("Softmax", [wide])))
        grad_labels = _add(grad_labels, execute1("Neg", [grad_backprop]))
    return [None if grad_logits is None else u.sum_to_shape(grad_logits, logits),
            None if grad_labels is None else u.sum_to_shape(grad_labels, labels)]


_xent_grad.accepts_none_gradients = True


@RegisterGradient("L2Loss")
def _l2_loss_grad(op, grad):
    return [execute1("Mul", [op.inputs[0], grad])]


@RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
    return [execute1("LeakyReluGrad", [grad, op.inputs[0]], {"alpha": u.attr(op, "alpha", 0.2)})]


@RegisterGradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op, grad):
    x = op.inputs[1]
    return [execute1("LeakyReluGrad", [grad, x], {"alpha": u.attr(op, "alpha", 0.2)}), u.zeros_like(x)]


@RegisterGradient("BiasAdd")
def _bias_add_grad(op, grad):
    fmt = u.attr(op, "data_format", "NHWC")
    return [grad, execute1("BiasAddGrad", [grad], {"data_format": fmt}) if u.needs(op, 1) else None]


@RegisterGradient("BiasAddGrad")
def _bias_add_grad_grad(op, grad):
    # The bias gradient broadcast back over out_backprop's shape.
    g = op.inputs[0]
    r = u.rank(g)
    if u.attr(op, "data_format", "NHWC") == "NCHW" and r is not None and r > 2:
        grad = execute1("Reshape", [grad, u.const([1, -1] + [1] * (r - 2))])
    return [execute1("BroadcastTo", [grad, u.shape(g)])]


def _attrs_of(op, names):
    """The op's attrs among `names` that it carries (passed on to its gradient ops)."""
    return {k: v for k in names if (v := u.attr(op, k)) is not None}


_CONV_ATTRS = ("strides", "padding", "explicit_paddings", "data_format", "dilations")
_POOL_ATTRS = ("ksize", "strides", "padding", "explicit_paddings", "data_format")


def _conv_attrs(op):
    return _attrs_of(op, _CONV_ATTRS)


@RegisterGradient("Conv2D")
def _conv2d_grad(op, grad):
    x, w = op.inputs
    a = _conv_attrs(op)
    return [execute1("Conv2DBackpropInput", [u.shape(x), w, grad], a) if u.needs(op, 0) else None,
            execute1("Conv2DBackpropFilter", [x, u.shape(w), grad], a) if u.needs(op, 1) else None]


@RegisterGradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
    _, w, dout = op.inputs
    a = _conv_attrs(op)
    return [None, execute1("Conv2DBackpropFilter", [grad, u.shape(w), dout], a), execute1("Conv2D", [grad, w], a)]


@RegisterGradient("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, grad):
    x, _, dout = op.inputs
    a = _conv_attrs(op)
    return [execute1("Conv2DBackpropInput", [u.shape(x), grad, dout], a), None, execute1("Conv2D", [x, grad], a)]


@RegisterGradient("DepthwiseConv2dNative")
def _depthwise_grad(op, grad):
    x, w = op.inputs
    a = _conv_attrs(op)
    return [execute1("DepthwiseConv2dNativeBackpropInput", [u.shape(x), w, grad], a) if u.needs(op, 0) else None,
            execute1("DepthwiseConv2dNativeBackpropFilter", [x, u.shape(w), grad], a) if u.needs(op, 1) else None]


@RegisterGradient("DepthwiseConv2dNativeBackpropInput")
def _depthwise_backprop_input_grad(op, grad):
    _, w, dout = op.inputs
    a = _conv_attrs(op)
    return [None, execute1("DepthwiseConv2dNativeBackpropFilter", [grad, u.shape(w), dout], a),
            execute1("DepthwiseConv2dNative", [grad, w], a)]


@RegisterGradient("DepthwiseConv2dNativeBackpropFilter")
def _depthwise_backprop_filter_grad(op, grad):
    x, _, dout = op.inputs
    a = _conv_attrs(op)
    return [execute1("DepthwiseConv2dNativeBackpropInput", [u.shape(x), grad, dout], a), None,
            execute1("DepthwiseConv2dNative", [x, grad], a)]


@RegisterGradient("FusedBatchNormV3")
def _fused_batch_norm_grad(op, grad, *_):
    # Training normalizes with the batch statistics the op saved; inference with the given ones.
    x, scale = op.inputs[0], op.inputs[1]
    training = u.attr(op, "is_training", True)
    saved = op.outputs[3:5] if training else op.inputs[3:5]
    attrs = _attrs_of(op, ("epsilon", "data_format", "is_training"))
    dx, dscale, doffset, _, _ = execute("FusedBatchNormGradV3", [grad, x, scale, *saved, op.outputs[5]], attrs)
    return [dx, dscale, doffset, None, None]


def _pool_attrs(op):
    return _attrs_of(op, _POOL_ATTRS)


@RegisterGradient("MaxPool")
def _max_pool_grad(op, grad):
    return [execute1("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad], _pool_attrs(op))]


@RegisterGradient("AvgPool")
def _avg_pool_grad(op, grad):
    return [execute1("AvgPoolGrad", [u.shape(op.inputs[0]), grad], _pool_attrs(op))]


@RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad(op, grad):
    return [None, execute1("AvgPool", [grad], _pool_attrs(op))]


def _last_dim(shape):
    return execute1("StridedSlice", [shape, u.const([-1]), u.const([0]), u.const([1])],
                    {"end_mask": 1, "shrink_axis_mask": 1})


no_gradient("InTopKV2")


@RegisterGradient("TopKV2")
def _top_k_grad(op, grad, _):
    # Scatter each row's gradients back to the positions its top k came from.
    x, indices = op.inputs[0], op.outputs[1]
    if grad is None:
        return [u.zeros_like(x), None]
    in_shape = u.shape(x)
    k = _last_dim(u.shape(indices))
    ind2d = execute1("Reshape", [execute1("Cast", [indices], {"DstT": u.INT32}),
                                 execute1("Pack", [u.const(-1), k], {"axis": 0})])
    rows = execute1("StridedSlice", [u.shape(ind2d), u.const([0]), u.const([1]), u.const([1])], {"shrink_axis_mask": 1})
    offsets = execute1("Range", [u.const(0), execute1("Mul", [rows, _last_dim(in_shape)]), _last_dim(in_shape)])
    flat = execute1("Reshape", [execute1("AddV2", [ind2d, execute1("ExpandDims", [offsets, u.const(-1)])]),
                                u.const([-1, 1])])
    total = execute1("Reshape", [execute1("Prod", [in_shape, u.const(0)]), u.const([1])])
    dense = execute1("ScatterNd", [flat, execute1("Reshape", [grad, u.const([-1])]), total])
    return [execute1("Reshape", [dense, in_shape]), None]
