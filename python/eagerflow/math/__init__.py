"""tf.math namespace."""
# --- elementwise (ops/math_ops.py) ---
from eagerflow.ops.math_ops import (abs, add, add_n, ceil, cos, divide, equal, exp, expm1, floor, floordiv, floormod,
                                    greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p,
                                    logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod, multiply,
                                    negative, not_equal, pow, reciprocal, round, rsqrt, scalar_mul, sigmoid, sign,
                                    sin, softplus, sqrt, square, squared_difference, subtract, tan, tanh, truediv)
# --- reductions and linalg (ops/reduction_ops.py, ops/linalg_ops.py) ---
from eagerflow.ops.reduction_ops import (argmax, argmin, cumprod, cumsum, reduce_all, reduce_any,
                                         reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod,
                                         reduce_std, reduce_sum, reduce_variance)
from eagerflow.ops.nn_ops import log_softmax, softmax
# --- gradient support ops (issue 6, grads helper) ---
from eagerflow.ops.grad_support_ops import invert_permutation, unsorted_segment_sum
from eagerflow.ops.math_ops import (acos, acosh, asin, asinh, atan, atan2, atanh, cosh, digamma, erf, erfc, erfinv,
                                    lgamma, log_sigmoid, nextafter, polygamma, sinh, softsign, xdivy, xlogy, zeta)
