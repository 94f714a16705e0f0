"""tf.dtypes: DType, the dtype objects, as_dtype and the casts."""
from eagerflow.framework.dtypes import (DType, as_dtype, bool, complex64, double, float16, float32, float64, half,
                                        int8, int16, int32, int64, resource, string, uint8, variant)
from eagerflow.ops.math_ops import cast, saturate_cast

__all__ = ["DType", "as_dtype", "bool", "cast", "complex64", "double", "float16", "float32", "float64", "half",
           "int8", "int16", "int32", "int64", "resource", "saturate_cast", "string", "uint8", "variant"]
