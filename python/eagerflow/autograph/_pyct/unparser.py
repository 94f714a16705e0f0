"""Source text of converted code in the form TF 2.21's AutoGraph prints (tf.autograph.to_code): the
standard library's unparser (minimal parentheses, `x, = vars_`, a blank line before each nested def)."""
import ast


def unparse(node):
    return ast.unparse(node) + "\n"
