"""ConcreteFunction: one trace of a tf.function, compiled to a C++ Plan and called without Python
in the loop; it checks calls against its structured signature and prints it as TF does."""
import inspect
import itertools
import pprint

from eagerflow import _core
from eagerflow.framework import dtypes, errors
from eagerflow.framework.tensor import Tensor
from eagerflow.eager import function_grad
from eagerflow.function import function_type as function_type_lib
from eagerflow.function import trace_type
from eagerflow.framework import nest

_BOUND = object()
_UIDS = itertools.count(1)  # a Python-valued parameter the call left out: the traced value applies


class ConcreteFunction:
    """A traced graph with fixed input types; calling it runs the graph's plan in C++.

    `params` are the traced function's parameters as (name, inspect kind) and `types` their
    TraceTypes, in the order `trace()` received them (absent for graphs traced elsewhere)."""

    def __init__(self, func_graph, params=None, types=None):
        self._graph = func_graph
        self._params = params
        self._types = types
        g = func_graph._graph
        targets = g.stateful_nodes()
        self._plan = _core.Plan(g, func_graph.inputs, func_graph.outputs, targets)
        self._num_inputs = len(func_graph.inputs) - len(func_graph.captures)
        self._capture_values = [outer for outer, _ in func_graph.captures]
        self._input_shapes = [t._shape_tuple for t in func_graph.inputs[:self._num_inputs]]
        self._arg_keywords = [t.name.split(":")[0] for t in func_graph.inputs[:self._num_inputs]]
        out_ids = {id(t): i for i, t in enumerate(func_graph.outputs)}
        self._out_template = func_graph.structured_outputs
        self._out_index = [out_ids.get(id(x)) if isinstance(x, Tensor) else None
                           for x in nest.flatten(func_graph.structured_outputs, expand_composites=True)]
        self._call = None  # (op type, attrs) of the call op a tape records (_call_op)
        self._saving_call = None  # the same call returning the values its gradient reads
        self._function_type = None
        self._uid = None  # numbers the inference function's name (taken on first use)

    @property
    def graph(self):
        return self._graph

    @property
    def inputs(self):
        return list(self._graph.inputs)

    @property
    def outputs(self):
        return list(self._graph.outputs)

    @property
    def structured_outputs(self):
        return self._graph.structured_outputs

    @property
    def structured_input_signature(self):
        return self._graph.structured_input_signature

    @property
    def captured_inputs(self):
        """The captured tensors, then the handles of the variables the graph holds (TF captures those too;
        here a variable's handle is a constant of the graph)."""
        return list(self._capture_values) + [v.handle for v in self.variables
                                             if not any(v.handle is c for c in self._capture_values)]

    @property
    def variables(self):
        """The variables the function's graph reads or writes, in the order it first holds them."""
        from eagerflow.ops import variable_registry
        out, seen = [], set()
        for node in self._graph._graph.nodes():
            value = node.attrs().get("value") if node.type == "Const" else None
            if value is None or value.dtype != dtypes.resource:
                continue
            v = variable_registry.variable_of(value)
            if v is not None and id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        return tuple(out)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def name(self):
        return self._graph.name

    @property
    def function_type(self):
        """The trace's FunctionType (TF 2.21): parameters typed by TraceTypes, output, captures."""
        if self._function_type is None:
            g = self._graph
            if self._params is None:  # traced elsewhere: the flat placeholders are the parameters
                params = [(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in self._arg_keywords]
                types = [trace_type.from_value(t) for t in g.inputs[:self._num_inputs]]
            else:
                params, types = self._params, self._types
            self._function_type = function_type_lib.of_trace(params, types, g.structured_outputs, g)
        return self._function_type

    # --- calling ---------------------------------------------------------------------------------

    def _inference_name(self):
        if self._uid is None:
            self._uid = next(_UIDS)
        return "__inference_%s_%d" % (self._graph.name, self._uid)

    @property
    def inference_fn(self):
        """The AtomicFunction of this trace (TF's ConcreteFunction.inference_fn)."""
        from eagerflow.function.atomic_function import AtomicFunction
        return AtomicFunction(self)

    def _call_flat(self, tensors):
        """Runs the plan on flat tensor inputs (placeholder order) and packs the structured outputs."""
        return self._pack(self._run_flat(tensors))

    def _run_flat(self, tensors):
        """Runs the plan on flat tensor inputs (placeholder order): the list of flat outputs."""
        if len(tensors) != self._num_inputs:
            raise errors.InvalidArgumentError(None, None, f"Expected {self._num_inputs} input tensors, got "
                                                          f"{len(tensors)}")
        for i, (t, shape) in enumerate(zip(tensors, self._input_shapes)):
            if not trace_type._shape_is_subtype(t._shape_tuple, shape):
                self._raise_shape_mismatch(i, t, shape)
        if _core.tape_depth() > 0:
            # One tape entry for the call (gradient: eager/function_grad.py); the kernel runs f's plan,
            # which also returns the forward values the gradient reads (saved, not recomputed).
            op, attrs, n_out = self._saving_call_op()
            return _core.execute(_core.get_op(op), list(tensors) + self._capture_values, attrs, None)[:n_out]
        return self._plan.run(list(tensors) + self._capture_values)  # the plan checks dtypes (TF's message)

    def _call_op(self):
        """(op type, attrs) of this function's call op: StatefulPartitionedCall (or PartitionedCall
        when the graph has no stateful op) with f = a GraphFunction of the graph, Tin, Tout."""
        if self._call is None:
            g = self._graph
            f = _core.GraphFunction(g._graph, g.inputs, g.outputs, g.name)
            op = "StatefulPartitionedCall" if g._graph.stateful_nodes() else "PartitionedCall"
            self._call = (op, {"Tin": [t.dtype for t in g.inputs], "Tout": [t.dtype for t in g.outputs], "f": f})
        return self._call

    def _saving_call_op(self):
        """_call_op's call with the saved forward values as extra outputs (built on first use)."""
        if self._saving_call is None:
            op, attrs = self._call_op()
            self._saving_call = function_grad.saving_call(attrs["f"], op)
        return self._saving_call

    def _raise_shape_mismatch(self, i, t, shape):
        from eagerflow.framework.tensor_shape import TensorShape
        n = "__inference_" + self._graph.name
        raise errors.InvalidArgumentError(None, None, f"cannot compute {n} as input #{i}(zero-based) was expected to "
                                                      f"have shape {TensorShape(shape)} but has shape "
                                                      f"{TensorShape(t._shape_tuple)} [Op:{n}]")

    def _fast_call_spec(self):
        """(plan, captures, output mode, packer) for Function's C++ call cache: mode 0 returns None,
        1 the single output tensor, 2 packer(list of outputs)."""
        if self._out_template is None:
            return self._plan, self._capture_values, 0, None
        if isinstance(self._out_template, Tensor) and self._out_index == [0]:
            return self._plan, self._capture_values, 1, None
        return self._plan, self._capture_values, 2, self._pack

    def _pack(self, flat):
        if self._out_template is None:
            return None
        leaves = [flat[i] if i is not None else x
                  for i, x in zip(self._out_index, nest.flatten(self._out_template, expand_composites=True))]
        if nest.is_nested(self._out_template, expand_composites=True):
            return nest.pack_sequence_as(self._out_template, leaves, expand_composites=True)
        return leaves[0]

    def __call__(self, *args, **kwargs):
        # As TF: the structured signature first; if it rejects the call, the flat one (tensors by
        # placeholder name); if both reject it, the structured error (the flat one as its context).
        if self._params is None:
            return self._call_with_flat_signature(args, kwargs)
        try:
            return self._call_with_structured_signature(args, kwargs)
        except TypeError as structured_err:
            try:
                return self._call_with_flat_signature(args, kwargs)
            except TypeError:
                raise structured_err

    def _call_with_flat_signature(self, args, kwargs):
        summary = self._flat_signature_summary()
        keywords = self._arg_keywords
        if len(args) > len(keywords):
            raise TypeError(f"{summary} takes {len(keywords)} positional arguments, got {len(args)}.")
        args, kwargs = list(args), dict(kwargs)
        for keyword in keywords[len(args):]:
            if keyword not in kwargs:
                specified = keywords[:len(args)] + list(kwargs)
                missing = sorted(set(keywords) - set(specified))
                raise TypeError(f"{summary} missing required arguments: {', '.join(missing)}.")
            args.append(kwargs.pop(keyword))
        if kwargs:
            for k in kwargs:
                if k in keywords[:len(args)]:
                    raise TypeError(f"{summary} got two values for '{k}'.")
            raise TypeError(f"{summary} got unexpected keyword arguments: {', '.join(sorted(kwargs))}.")
        for i, a in enumerate(args):
            if not isinstance(a, Tensor) and not hasattr(a, "_as_tensor"):
                raise TypeError(f"{summary}: expected argument #{i}(zero-based) to be a Tensor; got "
                                f"{type(a).__name__} ({a}).")
        return self._call_flat([a if isinstance(a, Tensor) else a._as_tensor() for a in args])

    def _call_with_structured_signature(self, args, kwargs):
        summary = self._structured_signature_summary()
        values = self._bind(args, kwargs, summary)
        specs = self._param_specs()
        flat = []
        for (name, _), t, spec, v in zip(self._params, self._types, specs, values):
            if v is _BOUND:
                continue
            _check_arg(v, t, spec, name, summary)
            trace_type.flatten_tensors(t, v, flat)
        return self._call_flat([a if isinstance(a, Tensor) else a._as_tensor() for a in flat])

    def _bind(self, args, kwargs, summary):
        """The call's value per parameter (_BOUND for Python-valued ones left out)."""
        names = [n for n, k in self._params if k in (inspect.Parameter.POSITIONAL_ONLY,
                                                      inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        varargs = [n for n, k in self._params if k == inspect.Parameter.VAR_POSITIONAL]
        if len(args) > len(names) and not varargs:
            raise TypeError(f"{summary} takes {len(names)} positional arguments but {len(args)} were given.")
        given = dict(zip(names, args))
        kwargs = dict(kwargs)
        for k in list(kwargs):
            if k in given:
                raise TypeError(f"{summary} got two values for argument '{k}'.")
        values, missing = [], []
        for (name, kind), t in zip(self._params, self._types):
            if kind == inspect.Parameter.VAR_POSITIONAL:
                values.append(tuple(args[len(names):]))
            elif kind == inspect.Parameter.VAR_KEYWORD:
                values.append({k: kwargs.pop(k) for k in list(kwargs)})
            elif name in given:
                values.append(given[name])
            elif name in kwargs:
                values.append(kwargs.pop(name))
            elif not _has_tensors(t):
                values.append(_BOUND)
            else:
                missing.append(name)
                values.append(None)
        if missing:
            raise TypeError(f"{summary} missing required arguments: {', '.join(missing)}.")
        if kwargs:
            raise TypeError(f"{summary} got unexpected keyword arguments: {', '.join(sorted(kwargs))}.")
        return values

    def _param_specs(self):
        """The structured_input_signature entry per parameter (a tuple/dict for *args/**kwargs)."""
        arg_specs, kwarg_specs = self.structured_input_signature
        arg_specs, out = list(arg_specs), []
        for name, kind in self._params:
            if kind == inspect.Parameter.VAR_POSITIONAL:
                out.append(tuple(arg_specs))
                arg_specs = []
            elif kind == inspect.Parameter.VAR_KEYWORD:
                out.append({k: v for k, v in kwarg_specs.items() if k not in dict(self._params)})
            elif kind == inspect.Parameter.KEYWORD_ONLY:
                out.append(kwarg_specs[name])
            else:
                out.append(arg_specs.pop(0))
        return out

    # --- printing --------------------------------------------------------------------------------

    def _flat_signature_summary(self):
        return f"{self._graph.name}({', '.join(self._arg_keywords)})"

    def _structured_signature_summary(self, default_values=False):
        if self._params is None:
            return self._flat_signature_summary()
        arg_specs, kwarg_specs = self.structured_input_signature
        arg_names = [n for n, k in self._params if k in (inspect.Parameter.POSITIONAL_ONLY,
                                                          inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        arg_names = arg_names[:len(arg_specs)]
        if default_values:
            for i in range(len(arg_names)):
                if not _contains_spec(arg_specs[i]):
                    arg_names[i] += "={}".format(arg_specs[i])
        if kwarg_specs:
            arg_names.append("*")
            for name, spec in kwarg_specs.items():
                arg_names.append(name)
                if default_values and not _contains_spec(spec):
                    arg_names[-1] += "={}".format(spec)
        return "{}({})".format(self._graph.name, ", ".join(arg_names))

    def pretty_printed_signature(self, verbose=True):
        """The signature summary with each argument's and the result's type (print(concrete))."""
        if not verbose:
            return self._structured_signature_summary(default_values=True)
        lines = [self._structured_signature_summary(default_values=True)]
        arg_specs, kwarg_specs = self.structured_input_signature
        names = [n for n, k in (self._params or []) if k in (inspect.Parameter.POSITIONAL_ONLY,
                                                              inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        if self._params is None:
            names = list(self._arg_keywords)
        names = names[:len(arg_specs)]
        names.extend(sorted(kwarg_specs))
        specs = list(arg_specs) + [kwarg_specs[k] for k in sorted(kwarg_specs)]
        details = ["    {}: {}".format(n, _pretty_spec(s)) for n, s in zip(names, specs) if _contains_spec(s)]
        if details:
            lines.append("  Args:")
            lines.extend(details)
        lines.append("  Returns:")
        lines.append("    {}".format(_pretty_spec(_output_specs(self.structured_outputs))))
        return "\n".join(lines)

    def __str__(self):
        if self._params is not None:
            return "ConcreteFunction {}".format(self.pretty_printed_signature())
        return self.__repr__()

    def __repr__(self):
        return "<ConcreteFunction %s at 0x%X>" % (self.function_type, id(self))


def _has_tensors(t):
    if isinstance(t, (trace_type.TensorType, trace_type.VariableType)):
        return True
    if isinstance(t, trace_type.CompositeType):
        return bool(t.components)
    return isinstance(t, trace_type._Composite) and any(_has_tensors(c) for c in t.components)


def _contains_spec(spec):
    from eagerflow.framework.tensor_spec import TensorSpec
    return any(isinstance(x, TensorSpec) for x in nest.flatten(spec))


def _structure_summary(x):
    """The structure with each leaf replaced by its type's name (TensorSpec: Tensor)."""
    from eagerflow.framework.tensor_spec import TensorSpec
    names = [_Marker("Tensor" if isinstance(v, TensorSpec) else type(v).__name__) for v in nest.flatten(x)]
    return str(nest.pack_sequence_as(x, names)) if nest.is_nested(x) else str(names[0])


def _check_arg(arg, t, spec, name, summary):
    """TypeError (TF's messages) when the call's value does not fit the traced argument."""
    if isinstance(t, trace_type.TensorType):
        if not isinstance(arg, Tensor) and not hasattr(arg, "_as_tensor"):
            raise TypeError(f"{summary} expected a Tensor in {name}, but got {type(arg).__name__} value {arg}.")
        return
    if isinstance(t, trace_type._Composite):
        ok = _same_container(t, arg, spec)
        if not ok:
            raise TypeError(f"{summary}: argument {name} had incorrect type\n"
                            f"  expected: {_structure_summary(spec)}\n"
                            f"       got: {_structure_summary(arg)}")
        for ct, s, v in zip(t.components, t._children(spec), t._children(arg)):
            _check_arg(v, ct, s, name, summary)
        return
    if isinstance(t, trace_type.VariableType):
        if not trace_type._is_variable(arg) or arg.dtype._type_enum != t.dtype_enum:
            raise TypeError(f"ConcreteFunction {summary} was constructed with {type(spec).__name__} value {spec} in "
                            f"{name}, but was called with {type(arg).__name__} value {arg}.")
        return
    if isinstance(t, trace_type.CompositeType):
        arg_spec = getattr(arg, "_type_spec", None)
        if arg_spec is None or not arg_spec.is_subtype_of(t.spec):
            raise TypeError(f"ConcreteFunction {summary} was constructed with {type(spec).__name__} value {spec} in "
                            f"{name}, but was called with {type(arg).__name__} value {arg}.")
        return
    try:
        same = bool(arg == spec) if not isinstance(arg, Tensor) else False
    except (ValueError, TypeError, ReferenceError):  # ReferenceError: the traced object is gone
        same = False
    if not same:
        raise TypeError(f"ConcreteFunction {summary} was constructed with {type(spec).__name__} value {spec} in "
                        f"{name}, but was called with {type(arg).__name__} value {arg}.")


def _same_container(t, arg, spec):
    if isinstance(t, trace_type.DictType):
        return isinstance(arg, dict) and set(arg) == set(spec)
    if isinstance(t, trace_type.NamedTupleType):
        return type(arg) is type(spec)
    cls = tuple if isinstance(t, trace_type.TupleType) else list
    return isinstance(arg, cls) and len(arg) == len(t.components)


class _Marker:
    def __init__(self, s):
        self.s = s

    def __repr__(self):
        return self.s


def _pretty_spec(spec):
    """One argument's or result's type as TF prints it in signatures."""
    from eagerflow.framework.tensor_spec import TensorSpec
    if isinstance(spec, TensorSpec):
        return "{} Tensor, shape={}".format(spec.dtype.name, spec.shape)
    if nest.is_nested(spec):
        pieces = nest.flatten(spec)
        markers = [_Marker("<{}>".format(i + 1)) for i in range(len(pieces))]
        result = pprint.pformat(nest.pack_sequence_as(spec, markers), width=10000)
        for marker, piece in zip(markers, pieces):
            result += "\n      {}: {}".format(marker, _pretty_spec(piece))
        return result
    return repr(spec)


class _NoneTensorSpec:
    def __repr__(self):
        return "NoneTensorSpec()"


def _output_specs(outputs):
    from eagerflow.framework.tensor_spec import TensorSpec

    def spec(x):
        if isinstance(x, Tensor):
            return TensorSpec(x.shape, x.dtype)
        return _NoneTensorSpec() if x is None else x
    if nest.is_nested(outputs):
        return nest.map_structure(spec, outputs)
    return spec(outputs)
