"""Source of a Python function as an ast.FunctionDef with the file's line numbers."""
import ast
import inspect
import textwrap


class ConversionError(Exception):
    """The function's source cannot be converted (no source, unsupported form)."""


def parse_function(fn):
    """(FunctionDef node, filename) for `fn`; decorators removed, line numbers as in the file."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise ConversionError("could not get source code: %s" % e) from None
    source = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        # A lambda or a def continued from a longer expression: not handled.
        raise ConversionError("could not parse the source code of %r" % (fn,)) from None
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise ConversionError("only functions defined with `def` are converted (got %r)" % (fn,))
    node = tree.body[0]
    if isinstance(node, ast.AsyncFunctionDef):
        raise ConversionError("async functions are not supported")
    if node.name != fn.__code__.co_name:
        raise ConversionError("source of %r does not match its code" % (fn,))
    ast.increment_lineno(node, first - 1)
    node.decorator_list = []
    node.returns = None
    for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
        a.annotation = None
    for a in (node.args.vararg, node.args.kwarg):
        if a is not None:
            a.annotation = None
    filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
    return node, filename
