"""tf.print and tf.strings.format: StringFormat builds the text, the stateful PrintV2 op writes it.

PrintV2 runs in C++ (eagerly, or on every call of a traced function); its stdout/stderr text comes
back through a callback to the Python-level sys.stdout / sys.stderr objects at print time, so
notebooks and pytest's capsys see it.
"""
import collections
import sys
import uuid

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.ops import _execute


def _write(stream, text):
    """The print sink: PrintV2's bytes to the current sys.stdout (1) or sys.stderr (2)."""
    f = sys.stdout if stream == 1 else sys.stderr
    if f is None:  # pythonw and friends: nowhere to print
        return
    f.write(text.decode("utf-8", "backslashreplace"))
    f.flush()


_core.set_print_callback(_write)

_SUMMARIZE_DEFAULT = 3


def _is_tensor(x):
    return isinstance(x, _core.Tensor) or hasattr(x, "_as_tensor")


def _as_tensor(x):
    return x._as_tensor() if not isinstance(x, _core.Tensor) else x


class _Placeholder:
    """Stands for a tensor inside a Python structure; its repr is the template placeholder."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    __str__ = __repr__


def _map_structure(x, fn):
    """Replaces the tensors of a nested structure like tf.nest does (plain dicts come out key-sorted)."""
    if _is_tensor(x):
        return fn(x)
    if isinstance(x, collections.OrderedDict):
        return type(x)((k, _map_structure(v, fn)) for k, v in x.items())
    if isinstance(x, dict):
        try:
            keys = sorted(x)
        except TypeError:
            keys = list(x)
        return type(x)((k, _map_structure(x[k], fn)) for k in keys)
    if isinstance(x, tuple) and hasattr(type(x), "_fields"):  # namedtuple
        return type(x)(*(_map_structure(v, fn) for v in x))
    if isinstance(x, (list, tuple)):
        return type(x)(_map_structure(v, fn) for v in x)
    return x


def _stream_attr(output_stream):
    if output_stream is sys.stdout or output_stream is sys.__stdout__:
        return "stdout"
    if output_stream is sys.stderr or output_stream is sys.__stderr__:
        return "stderr"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. Supported streams are "
                     "sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, tf.logging.error. File needs to "
                     "be in the form of 'file://<filepath>'.")


def _build_template(inputs, sep):
    """The format template (text of Python values, a placeholder per tensor) and the tensors, in order.

    The placeholder is "{}" unless the user's own text contains it; then a unique one is made up.
    """
    tensors = []
    pieces = []  # template text (str), None for a tensor, or a structure's repr with "\0" per tensor (tuple)
    for x in inputs:
        if isinstance(x, str):
            pieces.append(x)
        elif _is_tensor(x):
            tensors.append(_as_tensor(x))
            pieces.append(None)
        else:
            found = []
            mapped = _map_structure(x, lambda t: found.append(_as_tensor(t)) or _Placeholder("\0"))
            tensors.extend(found)
            pieces.append((repr(mapped),) if found else repr(mapped))
    placeholder = "{}"
    while True:
        template = sep.join(placeholder if p is None else p if isinstance(p, str) else p[0].replace("\0", placeholder)
                            for p in pieces)
        if template.count(placeholder) == len(tensors):
            return template, placeholder, tensors
        placeholder = "{%s}" % uuid.uuid4().hex


def print_v2(*inputs, **kwargs):
    """tf.print: prints the inputs (tensors formatted like TF, Python values as text), separated by `sep`."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", _SUMMARIZE_DEFAULT)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", "\n")
    if kwargs:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
    if summarize is None:
        summarize = _SUMMARIZE_DEFAULT
    stream = _stream_attr(output_stream)
    format_name = name + "_format" if name else "StringFormat"
    print_name = name or "PrintV2"

    single = inputs[0] if len(inputs) == 1 else None
    if isinstance(single, str):
        text = _execute.convert_to_tensor(single)
    elif (single is not None and _is_tensor(single) and _as_tensor(single).dtype == dtypes.string
          and _as_tensor(single).shape.rank == 0):
        text = _as_tensor(single)  # a lone string scalar prints raw, without quotes
    else:
        template, placeholder, tensors = _build_template(inputs, sep)
        text = _execute.execute1("StringFormat", tensors, {"template": template, "placeholder": placeholder,
                                                          "summarize": int(summarize)}, format_name)
    _execute.execute("PrintV2", [text], {"output_stream": stream, "end": end}, print_name)
    graph = _core.current_graph()
    if graph is None:
        return None
    from eagerflow.framework.ops import Operation
    return Operation(graph.nodes()[-1])


def string_format(template, inputs, placeholder="{}", summarize=3, name=None):
    """tf.strings.format: `template` with each placeholder replaced by the next input tensor's text."""
    if _is_tensor(inputs):
        inputs = [inputs]
    if not isinstance(template, str):  # TF leaks an AttributeError (template.count) here
        raise TypeError(f"Expected string for argument 'template' not {template!r}.")
    if template.count(placeholder) != len(inputs):
        raise ValueError(f"The template expects {template.count(placeholder)} tensors, but the inputs only has "
                         f"{len(inputs)}. Please ensure the number of placeholders in template matches inputs "
                         "length.")
    tensors = [_as_tensor(x) if _is_tensor(x) else _execute.convert_to_tensor(x) for x in inputs]
    return _execute.execute1("StringFormat", tensors, {"template": template, "placeholder": placeholder,
                                                      "summarize": int(3 if summarize is None else summarize)},
                             name or "StringFormat")
