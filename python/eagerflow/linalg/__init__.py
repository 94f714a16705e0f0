"""tf.linalg namespace."""
from eagerflow.ops.creation_ops import eye
from eagerflow.ops.einsum_ops import einsum, tensordot
from eagerflow.ops.linalg_ops import matmul
from eagerflow.ops.matrix_diag_ops import band_part, diag, diag_part, set_diag
from eagerflow.ops.matrix_ops import (adjoint, cholesky, cholesky_solve, cross, det, eigh, eigvalsh, inv, logdet, lstsq,
                                      matrix_transpose, pinv, qr, slogdet, solve, svd, triangular_solve)
from eagerflow.ops.nn_ops import global_norm
from eagerflow.ops.norm_ops import matvec, norm, trace
from eagerflow.ops.composite_math import normalize

__all__ = ["adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag", "diag_part", "eigh",
           "eigvalsh", "einsum", "eye", "global_norm", "inv", "logdet", "lstsq", "matmul", "matrix_transpose",
           "matvec", "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "svd", "tensordot", "trace",
           "triangular_solve"]
