"""tf.version: this build's versions under TF's names. VERSION is eagerflow's own; the GraphDef
versions are TF 2.21's, since graphs are written in its format; GIT_VERSION is "unknown", as TF's is
when it is built outside a git checkout."""
from eagerflow import _core
from eagerflow._version import __version__ as VERSION
from eagerflow.framework.function_def import (GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER,
                                              GRAPH_DEF_VERSION_MIN_PRODUCER)

COMPILER_VERSION = _core.COMPILER_VERSION
GIT_VERSION = "unknown"

__all__ = ["COMPILER_VERSION", "GIT_VERSION", "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER",
           "GRAPH_DEF_VERSION_MIN_PRODUCER", "VERSION"]
