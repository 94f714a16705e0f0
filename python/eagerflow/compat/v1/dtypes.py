"""tf.compat.v1.dtypes: as tf.dtypes."""
from eagerflow.framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16,
                                        float32, float64, half, int8, int16, int32, int64, resource, string, uint8,
                                        uint16, uint32, uint64, variant)
from eagerflow.ops.math_ops import cast, saturate_cast

__all__ = ["DType", "as_dtype", "bfloat16", "bool", "cast", "complex128", "complex64", "double", "float16",
           "float32", "float64", "half", "int16", "int32", "int64", "int8", "resource", "saturate_cast", "string",
           "uint16", "uint32", "uint64", "uint8", "variant"]
