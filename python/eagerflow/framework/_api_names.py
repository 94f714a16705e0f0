"""TF's public functions with dispatch support (`tf.__internal__.dispatch`) and, where it is not the path
itself, the API name TF gives each (tf_export's canonical name, or the TF1 function a TF2 one calls first):
Keras names the TFOpLambda layer of a call on KerasTensors `tf.<name>`."""

DISPATCHABLE = """
Assert abs acos acosh add add_n argmax argmin asin asinh assert_equal assert_greater assert_less assert_rank
atan atan2 atanh bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.invert bitwise.left_shift
bitwise.right_shift boolean_mask broadcast_static_shape broadcast_to case cast clip_by_global_norm clip_by_norm
clip_by_value concat cond convert_to_tensor cos cosh cumsum debugging.Assert debugging.assert_equal
debugging.assert_greater debugging.assert_greater_equal debugging.assert_less debugging.assert_less_equal
debugging.assert_negative debugging.assert_non_negative debugging.assert_non_positive
debugging.assert_none_equal debugging.assert_positive debugging.assert_rank debugging.assert_shapes
debugging.check_numerics divide einsum equal exp expand_dims eye fill floor foldl foldr gather gather_nd greater
greater_equal identity io.matching_files less less_equal linalg.adjoint linalg.band_part linalg.cholesky
linalg.cholesky_solve linalg.cross linalg.det linalg.diag linalg.diag_part linalg.eigh linalg.eigvalsh
linalg.einsum linalg.eye linalg.global_norm linalg.inv linalg.logdet linalg.lstsq linalg.matmul
linalg.matrix_transpose linalg.matvec linalg.norm linalg.pinv linalg.qr linalg.set_diag linalg.solve linalg.svd
linalg.tensordot linalg.trace linalg.triangular_solve linspace logical_and logical_not logical_or math.abs
math.acos math.acosh math.add math.add_n math.argmax math.argmin math.asin math.asinh math.atan math.atan2
math.atanh math.ceil math.conj math.cos math.cosh math.cumprod math.cumsum math.digamma math.divide
math.divide_no_nan math.equal math.erf math.erfc math.erfinv math.exp math.expm1 math.floor math.floordiv
math.floormod math.greater math.greater_equal math.in_top_k math.invert_permutation math.is_finite math.is_inf
math.is_nan math.less math.less_equal math.lgamma math.log math.log1p math.log_sigmoid math.log_softmax
math.logical_and math.logical_not math.logical_or math.logical_xor math.maximum math.minimum math.mod
math.multiply math.multiply_no_nan math.negative math.nextafter math.not_equal math.polygamma math.pow
math.reciprocal math.reduce_all math.reduce_any math.reduce_logsumexp math.reduce_max math.reduce_mean
math.reduce_min math.reduce_prod math.reduce_std math.reduce_sum math.reduce_variance math.round math.rsqrt
math.scalar_mul math.sigmoid math.sign math.sin math.sinh math.softmax math.softplus math.softsign math.sqrt
math.square math.squared_difference math.subtract math.tan math.tanh math.top_k math.truediv
math.unsorted_segment_sum math.xdivy math.xlogy math.zeta matmul maximum meshgrid minimum multiply negative
nn.avg_pool nn.avg_pool2d nn.batch_normalization nn.bias_add nn.conv1d nn.conv1d_transpose nn.conv2d
nn.conv2d_transpose nn.conv_transpose nn.depthwise_conv2d nn.depthwise_conv2d_backprop_filter
nn.depthwise_conv2d_backprop_input nn.dropout nn.elu nn.embedding_lookup nn.gelu nn.in_top_k nn.l2_loss
nn.l2_normalize nn.leaky_relu nn.log_softmax nn.max_pool nn.max_pool2d nn.moments nn.relu nn.relu6 nn.selu
nn.separable_conv2d nn.sigmoid nn.sigmoid_cross_entropy_with_logits nn.silu nn.softmax
nn.softmax_cross_entropy_with_logits nn.softplus nn.softsign nn.sparse_softmax_cross_entropy_with_logits
nn.swish nn.tanh nn.top_k no_op norm not_equal numpy_function one_hot ones ones_like pad pow print py_function
random.normal random.shuffle random.truncated_normal random.uniform range rank reduce_all reduce_any
reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_sum repeat reshape reverse round
scalar_mul scan scatter_nd shape sigmoid sign sin sinh size slice split sqrt square squeeze stack stop_gradient
strided_slice strings.format strings.join strings.length subtract tan tanh tensordot tile transpose truediv
truncatediv truncatemod unstack where zeros zeros_like
""".split()

API_NAMES = {
    "Assert": "debugging.Assert", "abs": "math.abs", "acos": "math.acos", "acosh": "math.acosh", "add": "math.add",
    "add_n": "math.add_n", "argmax": "math.argmax", "argmin": "math.argmin", "asin": "math.asin",
    "asinh": "math.asinh", "assert_equal": "debugging.assert_equal", "assert_greater": "debugging.assert_greater",
    "assert_less": "debugging.assert_less", "assert_rank": "debugging.assert_rank", "atan": "math.atan",
    "atan2": "math.atan2", "atanh": "math.atanh", "boolean_mask": "compat.v1.boolean_mask", "cos": "math.cos",
    "cosh": "math.cosh", "cumsum": "math.cumsum", "divide": "math.truediv", "equal": "math.equal",
    "exp": "math.exp", "floor": "math.floor", "gather": "compat.v1.gather", "gather_nd": "compat.v1.gather_nd",
    "greater": "math.greater", "greater_equal": "math.greater_equal", "less": "math.less",
    "less_equal": "math.less_equal", "linalg.einsum": "einsum", "linalg.eye": "eye",
    "linalg.norm": "compat.v1.norm", "linalg.tensordot": "tensordot", "logical_and": "math.logical_and",
    "logical_not": "math.logical_not", "logical_or": "math.logical_or", "math.divide": "math.truediv",
    "math.floordiv": "compat.v1.floor_div", "math.log_softmax": "nn.log_softmax", "math.mod": "math.floormod",
    "math.softmax": "nn.softmax", "math.softsign": "nn.softsign", "matmul": "linalg.matmul",
    "maximum": "math.maximum", "minimum": "math.minimum", "multiply": "math.multiply", "negative": "math.negative",
    "nn.embedding_lookup": "compat.v1.nn.embedding_lookup", "nn.in_top_k": "math.in_top_k",
    "nn.l2_normalize": "math.l2_normalize", "nn.sigmoid": "math.sigmoid",
    "nn.sigmoid_cross_entropy_with_logits": "compat.v1.nn.sigmoid_cross_entropy_with_logits",
    "nn.softmax_cross_entropy_with_logits": "compat.v1.nn.softmax_cross_entropy_with_logits_v2",
    "nn.softplus": "math.softplus", "nn.swish": "nn.silu", "nn.tanh": "math.tanh", "nn.top_k": "math.top_k",
    "norm": "compat.v1.norm", "not_equal": "math.not_equal", "pow": "math.pow", "reduce_all": "math.reduce_all",
    "reduce_any": "math.reduce_any", "reduce_logsumexp": "math.reduce_logsumexp", "reduce_max": "math.reduce_max",
    "reduce_mean": "math.reduce_mean", "reduce_min": "math.reduce_min", "reduce_prod": "math.reduce_prod",
    "reduce_sum": "math.reduce_sum", "round": "math.round", "scalar_mul": "math.scalar_mul",
    "shape": "compat.v1.shape", "sigmoid": "math.sigmoid", "sign": "math.sign", "sin": "math.sin",
    "sinh": "math.sinh", "size": "compat.v1.size", "sqrt": "math.sqrt", "square": "math.square",
    "squeeze": "compat.v1.squeeze", "subtract": "math.subtract", "tan": "math.tan", "tanh": "math.tanh",
    "transpose": "compat.v1.transpose", "truediv": "math.truediv",
}
