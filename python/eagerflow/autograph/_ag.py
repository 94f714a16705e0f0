"""The `ag__` namespace converted code calls (bound as a closure cell, never a user global)."""
from eagerflow.autograph._core.function_wrappers import STD, ConversionOptions, FunctionScope, autograph_artifact  # noqa: F401
from eagerflow.autograph._impl.api import converted_call  # noqa: F401
from eagerflow.autograph._operators.control_flow import for_stmt, if_exp, if_stmt, while_stmt  # noqa: F401
from eagerflow.autograph._operators.exceptions import assert_stmt  # noqa: F401
from eagerflow.autograph._operators.logical import and_, not_, or_  # noqa: F401
from eagerflow.autograph._operators.variables import Undefined, UndefinedReturnValue, ld, ldu  # noqa: F401
