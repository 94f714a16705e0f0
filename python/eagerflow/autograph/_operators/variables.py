"""Undefined-symbol sentinels and `ld`, the checked variable load of converted code."""


class Undefined:
    """Value of a symbol that converted code declares before its definition (TF's ag__.Undefined)."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def read(self):
        raise UnboundLocalError("'{}' is used before assignment".format(self.symbol_name))

    def __repr__(self):
        return self.symbol_name


class UndefinedReturnValue:
    """`retval_` before any return statement ran."""

    __slots__ = ()


def ld(v):
    """Load of a variable: an Undefined symbol raises UnboundLocalError naming it."""
    if type(v) is Undefined:
        return v.read()
    return v


def ldu(load_fn, name):
    try:
        return load_fn()
    except (NameError, UnboundLocalError):
        return Undefined(name)


def is_undefined(v):
    return isinstance(v, (Undefined, UndefinedReturnValue))
