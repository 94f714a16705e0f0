"""tf.math namespace."""
# --- elementwise (ops/math_ops.py) ---
# --- reductions and linalg (ops/reduction_ops.py, ops/linalg_ops.py) ---
from eagerflow.ops.reduction_ops import (argmax, argmin, cumprod, cumsum, reduce_all, reduce_any,
                                         reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod,
                                         reduce_std, reduce_sum, reduce_variance)
from eagerflow.ops.nn_ops import log_softmax, softmax
