"""GraphDef, NodeDef and AttrValue as Graph.as_graph_def() returns them: the fields TF's protos have,
printed in protobuf text format (attr maps in sorted key order)."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes

# Attrs TF's op definitions default that a traced node always carries.
_DEFAULT_ATTRS = {
    "MatMul": {"grad_a": False, "grad_b": False},
    "BatchMatMulV2": {"grad_x": False, "grad_y": False},
    "Cast": {"Truncate": False},
}
# Attrs tf.cond (cond_v2) sets on every If it builds.
_COND_ATTRS = {"_lower_using_switch_merge": True, "_read_only_resource_inputs": []}

_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def c_escape(data):
    """Bytes as protobuf's text format quotes them (octal escapes outside printable ASCII)."""
    return "".join(_ESCAPES.get(b) or (chr(b) if 32 <= b < 127 else "\\%03o" % b) for b in data)


def _float_text(v, single=True):
    """Shortest round-trip text, as protobuf prints floats ("1" for 1.0)."""
    text = str(np.float32(v)) if single else repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def _type_name(enum):
    name = dtypes.as_dtype(enum).name
    return "DT_" + {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}.get(name, name.upper())


class _Enum(int):
    """An enum field: compares as its number, prints as its name."""

    def __new__(cls, value):
        self = super().__new__(cls, value)
        self.name = _type_name(value)
        return self


class _Msg:
    """A protobuf message: fields in declaration order, printed as text format."""

    _fields = ()

    def _items(self):
        for name in self._fields:
            value = getattr(self, name)
            if isinstance(value, list):
                for v in value:
                    yield name, v
            elif value is not None:
                yield name, value

    def _text(self, indent):
        pad = "  " * indent
        out = []
        for name, v in self._items():
            if isinstance(v, _Msg):
                out.append(f"{pad}{name} {{\n{v._text(indent + 1)}{pad}}}\n")
            else:
                out.append(f"{pad}{name}: {_scalar_text(v)}\n")
        return "".join(out)

    def __str__(self):
        return self._text(0)

    __repr__ = __str__


def _scalar_text(v):
    if isinstance(v, _Enum):
        return v.name
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, bytes):
        return '"' + c_escape(v) + '"'
    if isinstance(v, str):
        return '"' + c_escape(v.encode("utf-8")) + '"'
    if isinstance(v, float):
        return _float_text(v, single=False)
    if isinstance(v, np.floating):
        return _float_text(v)
    return str(v)


class _Dim(_Msg):
    _fields = ("size",)

    def __init__(self, size):
        self.size = size


class TensorShapeProto(_Msg):
    _fields = ("dim", "unknown_rank")

    def __init__(self, dims):
        self.dim = [] if dims is None else [_Dim(-1 if d is None else int(d)) for d in dims]
        self.unknown_rank = True if dims is None else None


class TensorProto(_Msg):
    """A Const's value as make_tensor_proto writes it: scalars and strings in *_val, arrays as bytes."""

    _fields = ("dtype", "tensor_shape", "tensor_content", "half_val", "float_val", "double_val", "int_val",
               "string_val", "scomplex_val", "int64_val", "bool_val")

    def __init__(self, value):
        for f in self._fields:
            setattr(self, f, None)
        arr = np.asarray(value._numpy())
        dt = value.dtype
        self.dtype = _Enum(dt._type_enum)
        self.tensor_shape = TensorShapeProto(list(arr.shape))
        if dt == dtypes.string:
            self.string_val = [bytes(x) for x in arr.reshape(-1)]
        elif arr.ndim == 0:
            x = arr[()] if dt == dtypes.float32 else arr.item()
            field = {dtypes.float32: "float_val", dtypes.float64: "double_val", dtypes.int64: "int64_val",
                     dtypes.bool: "bool_val", dtypes.float16: "half_val"}.get(dt, "int_val")
            if dt == dtypes.float16:
                x = int(arr.view(np.uint16))
            elif dt == dtypes.complex64:
                field, x = "scomplex_val", None
                self.scomplex_val = [float(arr.real), float(arr.imag)]
            if x is not None:
                setattr(self, field, [x])
        else:
            self.tensor_content = arr.astype(arr.dtype.newbyteorder("<")).tobytes()


class _NameAttrList(_Msg):
    _fields = ("name",)

    def __init__(self, name):
        self.name = name


class _ListValue(_Msg):
    _fields = ("s", "i", "f", "b", "type", "shape", "tensor", "func")

    def __init__(self, **kw):
        for f in self._fields:
            setattr(self, f, kw.get(f, []))


class AttrValue(_Msg):
    """One attr of a NodeDef: exactly one of its fields is set."""

    _fields = ("s", "i", "f", "b", "type", "shape", "tensor", "list", "func")

    def __init__(self, field, value):
        for f in self._fields:
            setattr(self, f, None)
        if field.startswith("list."):
            kind = field[5:]
            if kind == "type":
                value = [_Enum(t) for t in value]
            elif kind == "shape":
                value = [TensorShapeProto(s) for s in value]
            self.list = _ListValue(**{kind: list(value)})
        elif field == "type":
            self.type = _Enum(value)
        elif field == "shape":
            self.shape = TensorShapeProto(value)
        elif field == "tensor":
            self.tensor = TensorProto(value)
        elif field == "func":
            self.func = _NameAttrList(value.name)
        elif field == "s":
            self.s = value.encode("utf-8") if isinstance(value, str) else value
        elif field != "none":
            setattr(self, field, value)


class NodeDef(_Msg):
    """A node of a GraphDef: name, op, input (names, "^name" for control inputs), device, attr."""

    _fields = ("name", "op", "input", "device", "attr")

    def __init__(self, name, op, inputs, attr, device=""):
        self.name, self.op, self.input, self.attr, self.device = name, op, inputs, attr, device or None

    def _items(self):
        yield "name", self.name
        yield "op", self.op
        for i in self.input:
            yield "input", i
        if self.device:
            yield "device", self.device
        for k in sorted(self.attr):
            yield "attr", _MapEntry(k, self.attr[k])


class _MapEntry(_Msg):
    _fields = ("key", "value")

    def __init__(self, key, value):
        self.key, self.value = key, value


class GraphDef(_Msg):
    """Graph.as_graph_def(): the nodes of a graph in creation order, the functions they call
    (`library`, printed when there are any) and the versions (framework/function_def.py)."""

    _fields = ("node", "library", "versions")

    def __init__(self, nodes, library=None, versions=None):
        self.node, self.library, self.versions = nodes, library, versions

    def _items(self):
        for n in self.node:
            yield "node", n
        if self.library is not None and self.library.function:
            yield "library", self.library
        if self.versions is not None:
            yield "versions", self.versions


def node_attrs(node, user_specified_name=None):
    """A graph node's attrs as AttrValues: its own, the type attrs its inputs fix, and the ones TF adds."""
    raw, fields = node.attrs(), node.attr_fields()
    attr = {k: AttrValue(fields[k], v) for k, v in raw.items() if fields[k] != "none"}
    op = _core.get_op(node.type)
    names = set(op.type_attr_names)
    for kind, t in zip(_expand_input_types(op, len(node.inputs())), node.inputs()):
        if kind in names and kind not in attr:
            attr[kind] = AttrValue("type", t._dtype_enum)
    for k, v in _DEFAULT_ATTRS.get(node.type, {}).items():
        attr.setdefault(k, AttrValue("b", v))
    if node.type in ("If", "StatelessIf"):
        attr.setdefault("_lower_using_switch_merge", AttrValue("b", True))
        attr.setdefault("_read_only_resource_inputs", AttrValue("list.i", []))
    if user_specified_name is not None:
        attr["_user_specified_name"] = AttrValue("s", user_specified_name)
    return attr


def _expand_input_types(op, n):
    """One type name per actual input (a variadic input's type repeats over its tensors)."""
    kinds = list(op.input_types)
    if len(kinds) == n:
        return kinds
    variadic = [i for i, name in enumerate(op.inputs) if name.endswith("*")]
    if len(variadic) != 1 or len(kinds) != len(op.inputs):
        return kinds[:n]
    i = variadic[0]
    extra = n - (len(kinds) - 1)
    return kinds[:i] + [kinds[i]] * extra + kinds[i + 1:]
