"""tf.debugging: asserts, Assert, check_numerics and enable_check_numerics."""
from eagerflow.ops.check_ops import (Assert, assert_equal, assert_greater, assert_greater_equal, assert_less,
                                     assert_less_equal, assert_negative, assert_non_negative, assert_non_positive,
                                     assert_none_equal, assert_positive, assert_rank, assert_shapes, check_numerics,
                                     disable_check_numerics, enable_check_numerics)

__all__ = ["Assert", "assert_equal", "assert_greater", "assert_greater_equal", "assert_less", "assert_less_equal",
           "assert_negative", "assert_non_negative", "assert_non_positive", "assert_none_equal", "assert_positive",
           "assert_rank", "assert_shapes", "check_numerics", "disable_check_numerics", "enable_check_numerics"]
