"""Compiles a converted FunctionDef into a function that runs with the original function's globals,
closure cells (so later changes of free variables are seen), defaults and the ag__ module."""
import ast
import types

from eagerflow.autograph._converters import base


def compile_function(node, fn, filename):
    """The code object of the converted function; its free variables are `ag__` and the original's."""
    freevars = list(fn.__code__.co_freevars)
    factory = base.funcdef("__ag_factory", ["ag__"] + freevars, [node, ast.Return(value=base.name(node.name))])
    ast.copy_location(factory, node)
    mod = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(mod)
    code = compile(mod, filename, "exec", dont_inherit=True)
    fcode = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "__ag_factory")
    return next(c for c in fcode.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)


def instantiate(code, fn, ag_module):
    """A function object for `code` bound to `fn`'s globals, cells and defaults."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(types.CellType(ag_module) if n == "ag__" else cells[n] for n in code.co_freevars)
    new = types.FunctionType(code, fn.__globals__, code.co_name, fn.__defaults__, closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = getattr(fn, "__qualname__", code.co_name)
    new.__module__ = fn.__module__
    new.__ag_converted__ = True
    return new
