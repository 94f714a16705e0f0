"""What the fuzzer calls, found by introspection, and how one call becomes a Python snippet.

Targets: every op of the registry (`_core.list_ops()`, called through `_core.execute` as a user
calls tf.raw_ops), every public callable of the TF namespaces below (parameters from
`inspect.signature`), and the methods, properties, operators and Python protocols of the classes
below. New API is fuzzed without edits here; a parameter's value comes from its name (axis,
dtype, shape, ...), else from its default's type, else from the tensor grammar.
"""
import bisect
import collections
import inspect
import itertools
import random
import re
import types

from fuzz.grammar import Grammar

NAMESPACES = ("", "math", "nn", "linalg", "strings", "random", "bitwise", "dtypes", "debugging", "nest")
CLASSES = ("Tensor", "Variable", "TensorArray", "TensorShape", "DType")
PRELUDE = "import array, copy, operator, pickle\nimport numpy as np\nimport eagerflow as tf\nfrom eagerflow import _core\n"

# Operators and Python protocols, written as a user writes them ({0}: the receiver).
OPERATORS = {f"__{n}__": f"{{0}} {s} {{1}}" for n, s in [
    ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"), ("mod", "%"), ("pow", "**"),
    ("matmul", "@"), ("and", "&"), ("or", "|"), ("xor", "^"), ("lshift", "<<"), ("rshift", ">>"),
    ("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")]}
OPERATORS.update({f"__r{n[2:]}": f"{{1}} {t.split()[1]} {{0}}" for n, t in list(OPERATORS.items())
                  if n[2:-2] in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor")})
OPERATORS.update({"__neg__": "-{0}", "__pos__": "+{0}", "__abs__": "abs({0})", "__invert__": "~{0}",
                  "__getitem__": "{0}[{index}]", "__setitem__": "operator.setitem({0}, {1}, {2})",
                  "__contains__": "{1} in {0}", "__round__": "round({0})", "__divmod__": "divmod({0}, {1})"})
PROTOCOLS = ("bool({0})", "len({0})", "list({0})", "int({0})", "float({0})", "complex({0})", "operator.index({0})",
             "np.asarray({0})", "np.array({0}, dtype=np.float64)", "hash({0})", "format({0}, {1})", "str({0})",
             "repr({0})", "copy.copy({0})", "copy.deepcopy({0})", "pickle.loads(pickle.dumps({0}))")

# Parameter names -> value generators (a Grammar method name).
BY_NAME = {
    "dtype": "dtype", "out_type": "dtype", "output_type": "dtype", "element_dtype": "dtype", "Tout": "dtype",
    "dtype_hint": "dtype", "preferred_dtype": "dtype",
    "axis": "axis", "axes": "axis", "dim": "axis", "dimension": "axis", "split_dim": "axis", "batch_dims": "axis",
    "squeeze_dims": "axis", "reduction_indices": "axis",
    "shape": "shape", "dims": "shape", "element_shape": "shape", "multiples": "shape", "perm": "shape",
    "begin": "shape", "end": "shape", "strides": "shape", "size_splits": "shape", "paddings": "paddings",
    "num": "int_value", "depth": "int_value", "num_or_size_splits": "int_value", "seed": "int_value",
    "summarize": "int_value", "num_segments": "int_value", "size": "int_value", "num_rows": "int_value",
    "num_columns": "int_value", "parallel_iterations": "int_value", "maximum_iterations": "int_value",
    "index": "int_value", "rank": "int_value", "num_elements": "int_value", "branch_index": "int_value",
    "name": "name", "message": "text", "template": "text", "placeholder": "text", "separator": "text",
    "unit": "text", "mode": "text", "output_stream": "text", "end": "text", "sep": "text", "data_format": "text",
    "fn": "callable_", "func": "callable_", "f": "callable_", "true_fn": "callable_", "false_fn": "callable_",
    "body": "callable_", "default": "callable_", "python_function": "callable_", "cond": "loop_condition",
    "branch_fns": "callables", "pred_fn_pairs": "pred_fn_pairs",
    "values": "tensor_list_arg", "inputs": "tensor_list_arg", "loop_vars": "tensor_list_arg", "inp": "tensor_list_arg",
    "tensors": "tensor_list_arg", "indices": "int_tensor", "segment_ids": "int_tensor", "pred": "boolean",
}
# Op input names (registry) -> generators; other inputs get tensors.
OP_INPUTS = {"resource": "handle", "input_handle": "tensor_list", "element_shape": "shape_tensor",
             "shape": "shape_tensor", "dims": "shape_tensor", "multiples": "shape_tensor", "perm": "shape_tensor",
             "begin": "shape_tensor", "end": "shape_tensor", "strides": "shape_tensor", "size": "shape_tensor",
             "size_splits": "shape_tensor", "s0": "shape_tensor", "s1": "shape_tensor", "lengths": "shape_tensor",
             "paddings": "paddings_tensor", "axis": "axis_tensor", "dim": "axis_tensor", "dimension": "axis_tensor",
             "reduction_indices": "axis_tensor", "split_dim": "axis_tensor", "indices": "int_tensor",
             "segment_ids": "int_tensor", "index": "int_scalar", "num": "int_scalar", "depth": "int_scalar",
             "num_segments": "int_scalar", "num_elements": "int_scalar", "max_num_elements": "int_scalar",
             "leading_dims": "shape_tensor", "num_split": "int_scalar"}
OP_BOOL_ATTRS = {"keep_dims", "adj_x", "adj_y", "transpose_a", "transpose_b", "exclusive", "reverse",
                 "resize_if_index_out_of_bounds"}
OP_TEXT_ATTRS = {"message", "mode", "template", "placeholder", "separator", "unit", "output_stream", "end", "token"}


class Target:
    """One callable: kind 'op' (registry), 'func' (namespace function), 'method' (receiver.name(...)),
    'property' (receiver.name) or 'operator' (a template over the receiver)."""

    def __init__(self, kind, label, params=None, opdef=None, cls=None, template=None):
        self.kind, self.label, self.params, self.opdef, self.cls, self.template = kind, label, params, opdef, cls, template
        self.weight = 0.0


def _signature(obj):
    """inspect.signature, or the parameters a pybind11 docstring spells out; None when unknown."""
    try:
        return list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        m = re.match(r"\w+\((.*?)\) ->", (getattr(obj, "__doc__", None) or "").strip())
        if not m:
            return None
        names = [p.split(":")[0].strip() for p in m.group(1).split(",") if p.strip()]
        return [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in names if n != "self"]


def discover(tf, core):
    """All targets of the library, in a fixed order (so seed + index names one call)."""
    targets = [Target("op", d.name, opdef=d) for d in sorted(core.list_ops(), key=lambda d: d.name)]
    seen = set()
    for ns_name in NAMESPACES:
        ns = getattr(tf, ns_name) if ns_name else tf
        for name in sorted(dir(ns)):
            obj = getattr(ns, name)
            if name.startswith("_") or isinstance(obj, types.ModuleType) or not callable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            targets.append(Target("func", f"tf.{ns_name + '.' if ns_name else ''}{name}", params=_signature(obj)))
    for cls_name in CLASSES:
        cls = getattr(tf, cls_name)
        for name in sorted(dir(cls)):
            attr = inspect.getattr_static(cls, name)
            if name in OPERATORS:
                targets.append(Target("operator", f"{cls_name}.{name}", cls=cls_name, template=OPERATORS[name]))
            elif name.startswith("_"):
                continue
            elif isinstance(attr, property):
                targets.append(Target("property", f"{cls_name}.{name}", cls=cls_name))
            elif callable(getattr(cls, name)):
                params = _signature(getattr(cls, name))
                if params and params[0].name == "self":
                    params = params[1:]
                targets.append(Target("method", f"{cls_name}.{name}", params=params, cls=cls_name))
        targets += [Target("operator", f"{cls_name}:{t.split('(')[0]}", cls=cls_name, template=t) for t in PROTOCOLS]
    return targets


# How often each kind of target is called (total weight of ops, API functions, each class; within a
# class, per target by kind). Indexing has a grammar of its own and gets more calls.
KIND_WEIGHTS = {"op": 3.0, "func": 4.0}
CLASS_WEIGHTS = {"Tensor": 1.4, "Variable": 0.6, "TensorArray": 0.5, "TensorShape": 0.25, "DType": 0.25}
MEMBER_WEIGHTS = {"operator": 3, "method": 2, "property": 1, "protocol": 1, "__getitem__": 12}


class CallBuilder:
    """Turns (seed, index) into one snippet: deterministic, independent of every other index."""

    def __init__(self, tf, core):
        self.targets = discover(tf, core)
        self.dtypes = sorted({getattr(tf.dtypes, n).name for n in dir(tf.dtypes) if isinstance(getattr(tf.dtypes, n), tf.DType)})
        group_total = collections.Counter()
        for t in self.targets:
            group_total[t.cls or t.kind] += self._weight(t)
        for t in self.targets:
            share = KIND_WEIGHTS.get(t.kind) or CLASS_WEIGHTS.get(t.cls, 0.1)
            t.weight = share * self._weight(t) / group_total[t.cls or t.kind]
        self.cumulative = list(itertools.accumulate(t.weight for t in self.targets))

    @staticmethod
    def _weight(t):
        if t.kind in KIND_WEIGHTS:
            return 1.0
        if t.label.endswith(".__getitem__"):
            return MEMBER_WEIGHTS["__getitem__"]
        return MEMBER_WEIGHTS["protocol" if ":" in t.label else t.kind]

    def build(self, seed, index):
        """Returns (target label, mode, snippet). Calls come in pairs: an even index runs eagerly,
        the next odd index is the same call inside a tf.function."""
        g = Grammar(random.Random(f"{seed}:{index // 2}"), self.dtypes)
        target = self.targets[bisect.bisect(self.cumulative, g.r.random() * self.cumulative[-1])]
        expr = getattr(self, "_" + target.kind)(g, target)
        mode = "function" if index % 2 else "eager"
        g.r = random.Random(f"{seed}:{index}")  # which values the function takes as arguments
        return target.label, mode, render(g, expr, mode)

    # -- one expression per target kind; arguments are bound to names a0, a1, ... in the setup
    def _arg(self, g, gen, *args):
        if isinstance(gen, tuple):
            gen, *args = gen
        return g.bind(getattr(Values, gen)(g, *args) if hasattr(Values, gen) else getattr(g, gen)(*args), "a")

    def _op(self, g, t):
        inputs = []
        for name in t.opdef.inputs:
            count = g.pick([0, 1, 2, 2, 3]) if name.endswith("*") else 1
            gen = OP_INPUTS.get(name.rstrip("*"), "tensor")
            inputs += [self._arg(g, gen if g.chance(0.85) else "tensorish") for _ in range(count)]
        if g.chance(0.05):
            inputs = inputs[:-1] if inputs and g.chance(0.5) else inputs + [self._arg(g, "tensor")]
        attrs = [f"{a!r}: {self._arg(g, Values.op_attr_gen(a))}" for a in t.opdef.attrs if g.chance(0.7)]
        if g.chance(0.05):
            attrs.append(g.pick(["'foo': 1", "7: True", "'T': 'float32'", "None: 1"]))
        inputs = "[" + ", ".join(inputs) + "]" if g.chance(0.97) else g.pick(["None", inputs[0] if inputs else "1"])
        return f"_core.execute(_core.get_op({t.label!r}), {inputs}, {{{', '.join(attrs)}}})"

    def _call_args(self, g, params):
        """Positional and keyword arguments for a parameter list (None: unknown, 0-2 positional)."""
        if params is None:
            return ", ".join(self._arg(g, "anything") for _ in range(g.pick([0, 1, 1, 2])))
        out, keyword = [], False  # once a parameter is left out, the rest go by keyword
        for p in params:
            if p.kind == p.VAR_POSITIONAL:
                out += [] if keyword else [self._arg(g, "tensorish") for _ in range(g.pick([0, 1, 2, 3]))]
                continue
            if p.kind == p.VAR_KEYWORD:
                continue
            required = p.default is p.empty
            if g.chance(0.02 if required else 0.5):
                keyword = True
                continue
            keyword = keyword or p.kind == p.KEYWORD_ONLY or (p.kind != p.POSITIONAL_ONLY and g.chance(0.3))
            value = self._arg(g, Values.param_gen(g, p))
            out.append(f"{p.name}={value}" if keyword else value)
        if g.chance(0.02):
            out.append(f"foo={self._arg(g, 'anything')}")
        return ", ".join(out)

    def _func(self, g, t):
        return f"{t.label}({self._call_args(g, t.params)})"

    def _method(self, g, t):
        return f"{Values.receiver(g, t.cls)}.{t.label.split('.')[1]}({self._call_args(g, t.params)})"

    def _property(self, g, t):
        return f"{Values.receiver(g, t.cls)}.{t.label.split('.')[1]}"

    def _operator(self, g, t):
        if "{index}" in t.template:  # indexing: mostly values of rank >= 2, where strides exceed 1
            g.base_shape = g.small_shape() if g.chance(0.3) else [g.pick([1, 2, 3, 4]) for _ in range(g.pick([2, 2, 3, 4]))]
        recv = Values.receiver(g, t.cls)
        other = lambda: self._arg(g, "tensorish" if g.chance(0.8) else "anything")
        others = [other() if "{1}" in t.template else "", other() if "{2}" in t.template else ""]
        if t.template.startswith("format"):
            others[0] = self._arg(g, "format_spec")
        return t.template.format(recv, *others, index=g.index(len(g.base_shape)) if "{index}" in t.template else "")


class Values:
    """Generators that need more than the grammar: receivers, op attrs and op inputs."""

    @staticmethod
    def receiver(g, cls):
        if cls == "Tensor":
            return g.bind(g.tensor(), "a")
        if cls == "Variable":
            return g.variable()
        if cls == "TensorArray":
            ta = g.tensor_array()
            if g.chance(0.5):
                g.setup.append((ta, f"{ta}.write(0, {g.tensor()})"))
            return ta
        if cls == "TensorShape":
            return g.bind(f"tf.TensorShape({g.pick(['None', '[]', '[2, None]', '[0, 3]', '[2**62]', repr(g.small_shape())])})", "s")
        return g.dtype_obj()

    @staticmethod
    def param_gen(g, p):
        if g.chance(0.1):
            return "anything"
        if p.name in BY_NAME:
            return BY_NAME[p.name]
        d = p.default
        if isinstance(d, bool):
            return "boolean"
        if isinstance(d, int):
            return "int_value"
        if isinstance(d, float):
            return "float_value"
        if isinstance(d, str):
            return ("literal_default", d) if g.chance(0.5) else "text"
        return "tensorish"

    @staticmethod
    def op_attr_gen(a):
        if a in OP_BOOL_ATTRS:
            return "boolean"
        if a in OP_TEXT_ATTRS:
            return "text"
        if a in ("Tout", "Tin"):
            return "dtype_list"
        if a[0] == "T" or a.endswith("dtype") or a.endswith("_type") or a in ("Index", "DstT"):
            return "dtype"
        if a in ("shape", "element_shape"):
            return "shape"
        if a == "output_shapes":
            return "shape_list"
        if a == "value":
            return "tensor"
        if a == "squeeze_dims":
            return "axis"
        return "int_value" if a in ("N", "num", "num_split", "axis", "seed", "seed2", "summarize", "num_elements",
                                    "parallel_iterations") or a.endswith("_mask") else "anything"

    # Grammar extensions (called with the grammar as first argument).
    @staticmethod
    def literal_default(g, d):
        return repr(g.pick([d, d.lower(), d.upper(), d + "x"]))

    @staticmethod
    def dtype_list(g):
        return "[" + ", ".join(g.dtype() for _ in range(g.pick([0, 1, 1, 2]))) + "]" if g.chance(0.8) else g.dtype()

    @staticmethod
    def shape_list(g):
        return "[" + ", ".join(g.shape() for _ in range(g.pick([0, 1, 2]))) + "]"

    @staticmethod
    def shape_tensor(g):
        return g.choose([(6, lambda: g.int_tensor(shape=[g.pick([0, 1, 2, 3, 4])])), (1, lambda: "tf.constant(-1)"),
                         (2, g.shape), (1, g.int_tensor)])

    @staticmethod
    def paddings(g):
        rank = len(g.base_shape) if g.chance(0.8) else g.pick([0, 1, 2, 7])
        row = lambda: f"[{g.pick(['0', '1', '2', '-1', '2**31', '2**62'])}, {g.pick(['0', '1', '3', '-2', '2**63 - 1'])}]"
        return "[" + ", ".join(row() for _ in range(rank)) + "]"

    @staticmethod
    def paddings_tensor(g):
        return f"tf.constant({Values.paddings(g)}, tf.int64)" if g.chance(0.7) else g.int_tensor()

    @staticmethod
    def axis_tensor(g):
        return f"tf.constant({g.r.randint(-7, 7)})" if g.chance(0.6) else g.choose([(1, g.int_tensor), (1, g.axis)])

    @staticmethod
    def int_scalar(g):
        return f"tf.constant({g.int_value()})" if g.chance(0.6) else g.int_value()

    @staticmethod
    def callables(g):
        return "[" + ", ".join(g.callable_() for _ in range(g.pick([0, 1, 2]))) + "]"

    @staticmethod
    def pred_fn_pairs(g):
        return "[" + ", ".join(f"({g.boolean()}, {g.callable_()})" for _ in range(g.pick([0, 1, 2]))) + "]"

    @staticmethod
    def loop_condition(g):
        return g.callable_(loop_condition=True)

    @staticmethod
    def format_spec(g):
        return g.pick(["''", "'.2f'", "'d'", "'>10'", "'x'", "'s'", "'%'"])


def render(g, expr, mode):
    """The snippet: imports, setup, the call (eagerly, or in a tf.function with some setup names
    as its arguments and the others captured), then the result's repr."""
    lines = [f"{name} = {value}" for name, value in g.setup]
    if mode == "eager":
        lines.append(f"r = {expr}")
    else:
        params = [name for name in dict.fromkeys(name for name, _ in g.setup) if g.chance(0.5)]
        decorator = "@tf.function" if g.chance(0.5) else "@tf.function(autograph=False)"  # AutoGraph costs ~5 ms
        lines += [decorator, f"def f({', '.join(params)}):", f"    return {expr}"]
        lines += [f"r = f({', '.join(params)})"] * (2 if g.chance(0.3) else 1)
    lines.append("print(repr(r))")
    return PRELUDE + "\n".join(lines) + "\n"
