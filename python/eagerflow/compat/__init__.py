"""tf.compat: the TF1 API (tf.compat.v1) and conversions between bytes and str."""
from eagerflow.compat import v1
from eagerflow.compat._compat import (as_bytes, as_str, as_str_any, as_text, bytes_or_text_types, complex_types,
                                      integral_types, real_types)

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types", "complex_types", "integral_types",
           "real_types", "v1"]
