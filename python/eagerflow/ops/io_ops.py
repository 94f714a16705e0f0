"""File-system ops: tf.io.matching_files (MatchingFiles, a glob in C++) and tf.io.gfile.glob."""
from eagerflow.framework import ops as _ops
from eagerflow.ops._execute import execute1
from eagerflow.ops.string_ops import _string_tensor


def matching_files(pattern, name=None):
    """The files matching a glob pattern (or a vector of them), sorted; an empty vector for none."""
    return execute1("MatchingFiles", [_string_tensor(pattern)], None, name or "MatchingFiles")


def glob(pattern):
    """tf.io.gfile.glob: the matching paths as Python strings (run eagerly, also while tracing)."""
    with _ops.init_scope():
        found = matching_files(pattern).numpy()
    return [p.decode("utf-8") for p in found.tolist()]
