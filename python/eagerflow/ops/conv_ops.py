"""tf.nn.conv2d and conv1d (Conv2D op, NHWC) and the explicit gradient entry points
conv2d_backprop_input / conv2d_backprop_filter."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops
from eagerflow.ops._execute import execute1


def _sequence(value, n, name):
    """TF's _get_sequence: an int or a list of 1, 2 or 4 values -> [1, h, w, 1] (NHWC)."""
    if value is None:
        value = 1
    if isinstance(value, int):
        return [1, value, value, 1]
    value = list(value)
    if len(value) == 1:
        return [1, value[0], value[0], 1]
    if len(value) == n:
        return [1] + value + [1]
    if len(value) == n + 2:
        return value
    raise ValueError(f"{name} should be of length 1, {n} or {n + 2} but was {len(value)}")


def _padding_attrs(padding):
    if isinstance(padding, str):
        return {"padding": padding.upper(), "explicit_paddings": []}
    pads = [list(p) for p in padding]
    if len(pads) != 4 or any(len(p) != 2 for p in pads):
        raise ValueError(f"When padding is explicit, it must be a list of 4 pairs (one per dimension of the input); "
                         f"got {padding}")
    if pads[0] != [0, 0] or pads[3] != [0, 0]:
        raise ValueError(f'Nonzero explicit padding in the batch or depth dimensions is not supported. '
                         f'Received: padding={padding}')
    return {"padding": "EXPLICIT", "explicit_paddings": [int(x) for p in pads for x in p]}


def _attrs(strides, padding, data_format, dilations):
    a = {"strides": _sequence(strides, 2, "strides"), "dilations": _sequence(dilations, 2, "dilations"),
         "data_format": data_format or "NHWC"}
    a.update(_padding_attrs(padding))
    return a


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """2-D convolution of NHWC `input` with HWIO `filters`; padding "SAME", "VALID" or explicit pairs."""
    x = convert_to_tensor(input)
    w = convert_to_tensor(filters, dtype=x.dtype)
    return execute1("Conv2D", [x, w], _attrs(strides, padding, data_format, dilations), name)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """1-D convolution (NWC input, WIO filters) as a Conv2D over a height of 1."""
    x = array_ops.expand_dims(convert_to_tensor(input), 1)
    w = array_ops.expand_dims(convert_to_tensor(filters, dtype=x.dtype), 0)
    s = stride if isinstance(stride, int) else list(stride)[0] if len(list(stride)) == 1 else list(stride)[1]
    d = 1 if dilations is None else (dilations if isinstance(dilations, int) else list(dilations)[-1])
    pad = padding if isinstance(padding, str) else [[0, 0], [0, 0]] + [list(p) for p in padding][1:]
    out = execute1("Conv2D", [x, w], _attrs([1, s], pad, "NHWC", [1, d]))
    return array_ops.squeeze(out, [1])


def conv2d_backprop_input(input_sizes, filters, out_backprop, strides, padding, data_format="NHWC", dilations=None,
                          name=None):
    """The gradient of conv2d with respect to its input."""
    sizes = convert_to_tensor(input_sizes, dtype=dtypes.int32)
    w = convert_to_tensor(filters)
    return execute1("Conv2DBackpropInput", [sizes, w, convert_to_tensor(out_backprop, dtype=w.dtype)],
                    _attrs(strides, padding, data_format, dilations), name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, data_format="NHWC", dilations=None,
                           name=None):
    """The gradient of conv2d with respect to its filters."""
    x = convert_to_tensor(input)
    sizes = convert_to_tensor(filter_sizes, dtype=dtypes.int32)
    return execute1("Conv2DBackpropFilter", [x, sizes, convert_to_tensor(out_backprop, dtype=x.dtype)],
                    _attrs(strides, padding, data_format, dilations), name)


def _pool(op, value, ksize, strides, padding, data_format, name):
    x = convert_to_tensor(value)
    attrs = {"ksize": _sequence(ksize, 2, "ksize"), "strides": _sequence(strides, 2, "strides"),
             "data_format": data_format or "NHWC"}
    attrs.update(_padding_attrs(padding))
    return execute1(op, [x], attrs, name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The maximum of each ksize window of NHWC `input`, windows `strides` apart."""
    return _pool("MaxPool", input, ksize, strides, padding, data_format, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The mean of each ksize window of NHWC `input` (padding is not counted)."""
    return _pool("AvgPool", input, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """tf.nn.max_pool for 4-D NHWC input (the N-D form's 2-D case)."""
    return max_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """tf.nn.avg_pool for 4-D NHWC input (the N-D form's 2-D case)."""
    return avg_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)


def _strides4(strides):
    s = [int(v) for v in strides] if not isinstance(strides, int) else [1, strides, strides, 1]
    if len(s) != 4:
        raise ValueError(f"strides should be of length 4 but was {len(s)}")
    return s


def _depthwise_attrs(strides, padding, data_format, rate):
    a = {"strides": _strides4(strides), "dilations": _sequence(rate, 2, "dilations"),
         "data_format": data_format or "NHWC"}
    a.update(_padding_attrs(padding))
    return a


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):
    """Each input channel convolved with its own `channel_multiplier` filters (filter [kh, kw, in, multiplier]):
    output channel c*multiplier + m. Dilations go to the kernel directly (TF's space_to_batch gives the same)."""
    x = convert_to_tensor(input)
    w = convert_to_tensor(filter, dtype=x.dtype)
    return execute1("DepthwiseConv2dNative", [x, w], _depthwise_attrs(strides, padding, data_format, dilations), name)


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding, data_format="NHWC",
                                    dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to its input."""
    sizes = convert_to_tensor(input_sizes, dtype=dtypes.int32)
    w = convert_to_tensor(filter)
    return execute1("DepthwiseConv2dNativeBackpropInput",
                    [sizes, w, convert_to_tensor(out_backprop, dtype=w.dtype)],
                    _depthwise_attrs(strides, padding, data_format, dilations), name)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding, data_format="NHWC",
                                     dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to its filter."""
    x = convert_to_tensor(input)
    sizes = convert_to_tensor(filter_sizes, dtype=dtypes.int32)
    return execute1("DepthwiseConv2dNativeBackpropFilter",
                    [x, sizes, convert_to_tensor(out_backprop, dtype=x.dtype)],
                    _depthwise_attrs(strides, padding, data_format, dilations), name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """A depthwise convolution followed by a 1x1 convolution mixing channels (pointwise_filter [1, 1, in*mult, out])."""
    x = convert_to_tensor(input)
    pw = convert_to_tensor(pointwise_filter, dtype=x.dtype)
    if pw.shape.rank is not None:
        if pw.shape.rank != 4:
            raise ValueError(f"Shape must be rank 4 but is rank {pw.shape.rank}")
        for d in pw.shape[:2]:
            if d is not None and d != 1:
                raise ValueError(f"Dimensions {d} and 1 are not compatible")
    depthwise = depthwise_conv2d(x, depthwise_filter, strides, padding, data_format, dilations)
    return execute1("Conv2D", [depthwise, pw], _attrs(1, "VALID", data_format, None), name)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC", dilations=None,
                     name=None):
    """The transpose (gradient) of conv2d: `input` [n, h, w, in] with filters [kh, kw, out, in] to `output_shape`."""
    return conv2d_backprop_input(output_shape, filters, input, strides, padding, data_format, dilations, name)


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC", dilations=None,
                     name=None):
    """conv2d_transpose over a height of 1: `input` [n, w, in], filters [k, out, in], output_shape [n, w, out]."""
    if data_format not in ("NWC", None):
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    x = array_ops.expand_dims(convert_to_tensor(input), 1)
    w = array_ops.expand_dims(convert_to_tensor(filters, dtype=x.dtype), 0)
    shape = convert_to_tensor(output_shape, dtype=dtypes.int32)
    shape = array_ops.concat([shape[:1], [1], shape[1:]], 0)
    s = _sequence(strides, 1, "strides")[1]
    d = _sequence(dilations, 1, "dilations")[1]
    out = conv2d_backprop_input(shape, w, x, [1, s], padding, "NHWC", [1, d])
    return array_ops.squeeze(out, [1], name=name)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None, dilations=None,
                   name=None):
    """conv1d_transpose or conv2d_transpose by the rank of output_shape (3 or 4)."""
    n = len(output_shape) if not hasattr(output_shape, "shape") else int(output_shape.shape[0])
    if n == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations, name)
    if n == 4:
        return conv2d_transpose(input, filters, output_shape, strides, padding, data_format or "NHWC", dilations, name)
    raise NotImplementedError("conv_transpose of rank 5 (conv3d_transpose) is not implemented")
