"""tf.autograph.experimental: do_not_convert, set_loop_options, Feature."""
import enum

from eagerflow.autograph.impl.api import do_not_convert  # noqa: F401


class Feature(enum.Enum):
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options of the enclosing loop; AutoGraph lifts this call out of the loop body when converting,
    so calling it directly does nothing (as in TF)."""
    return None
