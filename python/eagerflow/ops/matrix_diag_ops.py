"""Band and diagonal ops: tf.linalg.band_part (MatrixBandPart), tf.linalg.diag, diag_part and
set_diag (MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3: one diagonal k)."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute1


def _index(v, dtype=dtypes.int64):
    if hasattr(v, "dtype"):
        return v
    return convert_to_tensor(v, dtype=dtype)


def band_part(input, num_lower, num_upper, name=None):  # pylint: disable=redefined-builtin
    """Keeps num_lower subdiagonals and num_upper superdiagonals (negative: all) of each matrix."""
    x = convert_to_tensor(input)
    lo = _index(num_lower)
    up = _index(num_upper, lo.dtype)
    return execute1("MatrixBandPart", [x, lo, up], {}, name)


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices with `diagonal` on their k-th diagonal and padding_value elsewhere."""
    d = convert_to_tensor(diagonal)
    ins = [d, _index(k, dtypes.int32), _index(num_rows, dtypes.int32), _index(num_cols, dtypes.int32),
           convert_to_tensor(padding_value, dtype=d.dtype)]
    return execute1("MatrixDiagV3", ins, {"align": align}, name)


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # pylint: disable=redefined-builtin
    """The k-th diagonal of each matrix."""
    x = convert_to_tensor(input)
    ins = [x, _index(k, dtypes.int32), convert_to_tensor(padding_value, dtype=x.dtype)]
    return execute1("MatrixDiagPartV3", ins, {"align": align}, name)


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # pylint: disable=redefined-builtin
    """`input` with its k-th diagonal replaced by `diagonal`."""
    x = convert_to_tensor(input)
    d = convert_to_tensor(diagonal, dtype=x.dtype)
    return execute1("MatrixSetDiagV3", [x, d, _index(k, dtypes.int32)], {"align": align}, name)
