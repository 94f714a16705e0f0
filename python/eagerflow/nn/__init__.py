"""tf.nn namespace."""
# --- activations (ops/nn_activation_ops.py, ops/math_ops.py) ---
from eagerflow.ops.nn_activation_ops import elu, relu, relu6, selu, sigmoid, softplus, tanh
from eagerflow.ops.math_ops import softsign
# --- softmax (ops/nn_ops.py) ---
from eagerflow.ops.nn_ops import log_softmax, softmax
# --- convolution (ops/conv_ops.py) ---
from eagerflow.ops.conv_ops import (avg_pool, avg_pool2d, conv1d, conv1d_transpose, conv2d, conv2d_backprop_filter,
                                    conv2d_backprop_input, conv2d_transpose, conv_transpose, depthwise_conv2d,
                                    depthwise_conv2d_backprop_filter, depthwise_conv2d_backprop_input, max_pool,
                                    max_pool2d, separable_conv2d)
from eagerflow.ops.embedding_ops import embedding_lookup
from eagerflow.ops.nn_dropout import dropout
from eagerflow.ops.nn_topk import in_top_k, top_k
# --- losses, normalization, more activations (ops/nn_impl.py) ---
from eagerflow.ops.nn_impl import (batch_normalization, bias_add, gelu, l2_loss, l2_normalize, leaky_relu, moments,
                                   sigmoid_cross_entropy_with_logits, silu, softmax_cross_entropy_with_logits,
                                   sparse_softmax_cross_entropy_with_logits, swish)

__all__ = ["avg_pool", "avg_pool2d", "max_pool", "max_pool2d", "batch_normalization", "bias_add", "conv1d", "conv1d_transpose", "conv2d", "conv2d_backprop_filter", "conv2d_backprop_input",
           "conv2d_transpose", "conv_transpose", "depthwise_conv2d", "depthwise_conv2d_backprop_filter",
           "depthwise_conv2d_backprop_input", "separable_conv2d", "dropout", "elu", "embedding_lookup", "gelu", "in_top_k", "l2_loss", "l2_normalize", "leaky_relu", "log_softmax",
           "moments", "relu", "relu6", "selu", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu",
           "softmax", "softmax_cross_entropy_with_logits", "softplus", "softsign",
           "sparse_softmax_cross_entropy_with_logits", "swish", "tanh", "top_k"]
