"""FunctionDef, FunctionDefLibrary and VersionDef of a GraphDef: the functions a graph calls (If/While
branches, nested tf.function calls) as TF's protos hold them, printed in protobuf text format."""
from eagerflow.framework import dtypes
from eagerflow.framework.graph_def import AttrValue, NodeDef, _Enum, _MapEntry, _Msg, node_attrs

# TF 2.21's GraphDef version (tf.version.GRAPH_DEF_VERSION), and the oldest consumer a graph with a
# function library declares (TF raises min_consumer when functions are added).
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
_FUNCTION_MIN_CONSUMER = 12

# Output arg names TF's op definitions give where the registry's input names do not tell them
# (ops reading x and y return z, ops reading x alone return y, others return output).
_OUTPUT_ARG = {"MatMul": "product", "BatchMatMulV2": "output", "Relu": "activations", "Relu6": "activations",
               "Elu": "activations", "Selu": "activations", "Softmax": "softmax", "LogSoftmax": "logsoftmax",
               "Cast": "y", "Shape": "output", "Pack": "output", "If": "output", "StatelessIf": "output",
               "While": "output", "StatelessWhile": "output"}


def output_arg_name(op):
    """The name of `op`'s (first) output arg, as a FunctionDef's node inputs spell it."""
    name = _OUTPUT_ARG.get(op.name)
    if name is not None:
        return name
    if list(op.inputs) == ["x", "y"]:
        return "z"
    if list(op.inputs) == ["x"]:
        return "y"
    return "output"


class VersionDef(_Msg):
    """GraphDef.versions: the producer's version and the oldest consumer that may read it."""

    _fields = ("producer", "min_consumer", "bad_consumers")

    def __init__(self, producer=GRAPH_DEF_VERSION, min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER):
        self.producer = producer
        self.min_consumer = min_consumer
        self.bad_consumers = []

    @classmethod
    def of_library(cls, library):
        return cls(min_consumer=_FUNCTION_MIN_CONSUMER if library.function else GRAPH_DEF_VERSION_MIN_CONSUMER)

    def _items(self):
        if self.producer:
            yield "producer", self.producer
        if self.min_consumer:
            yield "min_consumer", self.min_consumer
        for b in self.bad_consumers:
            yield "bad_consumers", b


class ArgDef(_Msg):
    _fields = ("name", "type")

    def __init__(self, name, dtype):
        self.name = name
        self.type = _Enum(dtypes.as_dtype(dtype)._type_enum)


class OpDef(_Msg):
    """FunctionDef.signature: the function's name and its argument and result types."""

    _fields = ("name", "input_arg", "output_arg", "is_stateful")

    def __init__(self, name, input_arg, output_arg, is_stateful=False):
        self.name, self.input_arg, self.output_arg = name, input_arg, output_arg
        self.is_stateful = True if is_stateful else None


class _ArgAttrs(_Msg):
    _fields = ("attr",)

    def __init__(self, attr):
        self.attr = attr

    def _items(self):
        for k, v in self.attr.items():
            yield "attr", _MapEntry(k, v)


class FunctionDef(_Msg):
    """One function of a GraphDef's library: signature, node_def, ret, attr, arg_attr."""

    _fields = ("signature", "node_def", "ret", "attr", "arg_attr")

    def __init__(self, fn, user_specified_names=None):
        g = fn.graph
        inputs, outputs = fn.inputs(), fn.outputs()
        arg_names = {t._node_name: _arg_name(t._node_name) for t in inputs}
        ret_names = _unique([_arg_name(t._node_name) for t in outputs])
        self.signature = OpDef(fn.name, [ArgDef(arg_names[t._node_name], t.dtype) for t in inputs],
                               [ArgDef(n, t.dtype) for n, t in zip(ret_names, outputs)], fn.stateful)
        self.node_def = []
        for node in g.nodes():
            if node.name in arg_names:
                continue
            ins = [_function_input(t, arg_names) for t in node.inputs()]
            ins += ["^" + c.name for c in node.control_inputs()]
            self.node_def.append(NodeDef(node.name, node.type, ins, node_attrs(node), node.device))
        self.ret = {n: _function_input(t, arg_names) for n, t in zip(ret_names, outputs)}
        self.attr = {"_construction_context": AttrValue("s", "kEagerRuntime")}
        self.arg_attr = {}
        for i, t in enumerate(inputs):
            attrs = {}
            user = (user_specified_names or {}).get(t._node_name)
            if user is not None:
                attrs["_user_specified_name"] = AttrValue("s", user)
            attrs["_output_shapes"] = AttrValue("list.shape", [t._shape_tuple])
            self.arg_attr[i] = _ArgAttrs(attrs)

    def _items(self):
        yield "signature", self.signature
        for n in self.node_def:
            yield "node_def", n
        for k, v in self.ret.items():
            yield "ret", _MapEntry(k, v)
        for k, v in self.attr.items():
            yield "attr", _MapEntry(k, v)
        for k, v in self.arg_attr.items():
            yield "arg_attr", _MapEntry(k, v)


class FunctionDefLibrary(_Msg):
    """GraphDef.library: every function the graph's nodes call, directly or through other functions."""

    _fields = ("function",)

    def __init__(self, functions=()):
        self.function = list(functions)


def _arg_name(node_name):
    return node_name.lower().replace("/", "_")


def _unique(names):
    seen, out = set(), []
    for n in names:
        base, k = n, 0
        while n in seen:
            k += 1
            n = f"{base}_{k}"
        seen.add(n)
        out.append(n)
    return out


def _function_input(t, arg_names):
    """An input as a FunctionDef spells it: an argument's name, else "<node>:<output arg>:<index>"."""
    node = t._node_name
    if node in arg_names:
        return arg_names[node]
    from eagerflow import _core
    return "%s:%s:%d" % (node, output_arg_name(_core.get_op(t.op.type)), t.value_index)


def called_functions(core_graph):
    """The GraphFunctions the nodes of `core_graph` call, then those they call, each once, in the
    order TF's library lists them (by name)."""
    found, stack = {}, [core_graph]
    seen_graphs = set()
    while stack:
        g = stack.pop()
        if g.id in seen_graphs:
            continue
        seen_graphs.add(g.id)
        for node in g.nodes():
            for v in node.attrs().values():
                for f in (v if isinstance(v, list) else [v]):
                    if hasattr(f, "outputs") and hasattr(f, "graph") and f.name not in found:
                        found[f.name] = f
                        stack.append(f.graph)
    return [found[k] for k in sorted(found)]
