"""tf.math namespace."""
# --- elementwise (ops/math_ops.py) ---
from eagerflow.ops.math_ops import (abs, acos, acosh, add, add_n, asin, asinh, atan, atan2, atanh, ceil, conj, cos, cosh,
                                    digamma, divide, divide_no_nan, equal, erf, erfc, erfinv, exp, expm1, floor, floordiv, floormod,
                                    greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, lgamma, log,
                                    log1p, log_sigmoid, logical_and, logical_not, logical_or, logical_xor, maximum,
                                    minimum, mod, multiply, multiply_no_nan, negative, nextafter, not_equal, polygamma, pow,
                                    reciprocal, round, rsqrt, scalar_mul, sigmoid, sign, sin, sinh, softplus,
                                    softsign, sqrt, square, squared_difference, subtract, tan, tanh, truediv, xdivy,
                                    xlogy, zeta)
# --- reductions and softmax (ops/reduction_ops.py, ops/nn_ops.py) ---
from eagerflow.ops.reduction_ops import (argmax, argmin, count_nonzero, cumprod, cumsum, reduce_all, reduce_any,
                                         reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod,
                                         reduce_std, reduce_sum, reduce_variance)
from eagerflow.ops.nn_ops import log_softmax, softmax
from eagerflow.ops.nn_impl import l2_normalize
from eagerflow.ops.composite_math import reciprocal_no_nan, reduce_euclidean_norm
from eagerflow.ops.nn_topk import in_top_k, top_k
# --- permutations and segments (ops/grad_support_ops.py) ---
from eagerflow.ops.grad_support_ops import invert_permutation, unsorted_segment_sum
# --- segment reductions and counting (ops/segment_ops.py, ops/unique_ops.py) ---
from eagerflow.ops.segment_ops import (segment_max, segment_mean, segment_min, segment_prod, segment_sum,
                                       unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
                                       unsorted_segment_prod, unsorted_segment_sqrt_n)
from eagerflow.ops.unique_ops import bincount

__all__ = ["abs", "acos", "acosh", "add", "add_n", "argmax", "argmin", "asin", "asinh", "atan", "atan2", "atanh",
           "ceil", "conj", "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "digamma", "divide", "divide_no_nan", "equal", "erf", "erfc", "erfinv", "exp",
           "expm1", "floor", "floordiv", "floormod", "greater", "greater_equal", "in_top_k", "invert_permutation", "is_finite",
           "is_inf", "is_nan", "less", "less_equal", "lgamma", "log", "log1p", "log_sigmoid", "log_softmax",
           "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply", "multiply_no_nan",
           "negative", "nextafter", "not_equal", "polygamma", "pow", "reciprocal", "reduce_all", "reduce_any",
           "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod", "reduce_std", "reduce_sum",
           "reduce_variance", "round", "rsqrt", "scalar_mul", "sigmoid", "sign", "sin", "sinh", "softmax", "softplus",
           "softsign", "sqrt", "square", "squared_difference", "subtract", "tan", "tanh", "top_k", "truediv",
           "unsorted_segment_sum", "xdivy", "xlogy", "zeta"]
__all__ += ["l2_normalize", "reciprocal_no_nan", "reduce_euclidean_norm"]
__all__ += ["bincount", "segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum",
            "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min", "unsorted_segment_prod",
            "unsorted_segment_sqrt_n"]
