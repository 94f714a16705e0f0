"""tf.GradientTape: ops are recorded in C++ (cpp/autodiff/tape.cc), and so is the backward walk.

The recorder tracks tensors reachable from watched ones and keeps one entry (op, inputs, outputs,
attrs) per recorded call. `gradient` walks the entries between the sources and the targets
(last recorded first: a reverse topological order) and calls each op's gradient function: for an
eager tape the walk is C++'s (`Tape.backward`), which runs the C++ gradients of the common ops and
calls back here (`_python_gradient`) for the rest; a tape recording inside a graph takes the same
walk written here (`_backward`). Registered gradient functions get an Operation-like view
(`_OpView`). Gradient functions use public ops, so a tape inside tf.function builds gradient ops
into the graph, and an enclosing tape records the gradient computation of an inner one
(higher-order gradients).
"""
import contextlib
import enum

import numpy as np

from eagerflow import _core
from eagerflow.ops import variable_registry
from eagerflow.framework import dtypes
from eagerflow.framework import errors
from eagerflow.framework.gradient_registry import get_gradient_function
from eagerflow.framework.indexed_slices import IndexedSlices
from eagerflow.framework.tf_logging import get_logger
from eagerflow.ops.variables import Variable
from eagerflow.framework import nest

_Tensor = _core.Tensor


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on (tf.UnconnectedGradients)."""
    NONE = "none"
    ZERO = "zero"


_warned_persistent = False


# TF's backprop_util.IsTrainable, as the tape's C++ walk applies it: floating, complex, resource, variant.
_TRAINABLE = frozenset(d for d in dtypes._ALL if _core.trainable_dtype(d._type_enum))
_FLOATING_ENUMS = frozenset(d._type_enum for d in _TRAINABLE if d.is_floating)


def _is_trainable(dtype):
    """TF's backprop_util.IsTrainable: floating, complex, resource and variant dtypes."""
    return dtype in _TRAINABLE


@contextlib.contextmanager
def _no_recording():
    """Suspends every tape of the thread (the gradient machinery's own constants)."""
    _core.tape_suspend()
    try:
        yield
    finally:
        _core.tape_resume()


class _OpView:
    """What a gradient function sees of a recorded op call or a graph node (an Operation-like view).

    `_entry` is a _core.TapeEntry or a _core.Node: both answer `attr(name)` with (kind, value)."""

    __slots__ = ("_entry", "type", "name", "inputs", "outputs", "skip_input_indices")

    def __init__(self, entry, skip_input_indices=None, op_type=None, inputs=None, outputs=None, name=None):
        self._entry = entry
        self.type = entry.type if op_type is None else op_type
        self.name = entry.name if name is None else name
        self.inputs = entry.inputs if inputs is None else inputs
        self.outputs = entry.outputs if outputs is None else outputs
        # TF's hint: the inputs no source reaches, whose gradients nobody reads (None: all needed).
        # Gradient functions may skip computing them and return None in their place.
        self.skip_input_indices = skip_input_indices

    def get_attr(self, name):
        kv = self._entry.attr(name)
        if kv is None:
            raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.")
        kind, value = kv
        if kind == _core.ATTR_DTYPE:
            return dtypes.as_dtype(value)
        if kind == _core.ATTR_DTYPE_LIST:
            return [dtypes.as_dtype(v) for v in value]
        return value

    @property
    def node_def(self):
        return {"op": self.type, "name": self.name, "attr": {n: self.get_attr(n) for n in self._entry.attr_names}}

    def _count_error(self, expected, received):
        return _tape_count_error(self.type, expected, received)

    def __repr__(self):
        return "<tape op %s>" % self.type


def _tape_count_error(op_type, expected, received):
    # TF's tape says "too few" whichever way the count is off.
    return errors.InternalError(None, None, "Recorded operation '%s' returned too few gradients. Expected %d but "
                                            "received %d" % (op_type, expected, received))


def _zeros_for(x):
    with _no_recording():
        from eagerflow.ops.creation_ops import zeros, zeros_like
        if isinstance(x, Variable):
            return zeros(x.shape, x.dtype)
        shape = x._shape_tuple
        if shape is not None and None not in shape and x.dtype != dtypes.variant:
            return zeros(shape, x.dtype)
        return zeros_like(x)  # variant: a TensorList of the same length with every element unset


def _ones_for(x):
    if x._shape_tuple == () and x._dtype_enum in _FLOATING_ENUMS:  # a scalar loss: the common seed (no op)
        return _core.convert_to_tensor(1.0, x._dtype_enum)
    with _no_recording():
        from eagerflow.ops.creation_ops import ones, ones_like
        shape = x._shape_tuple
        if shape is not None and None not in shape:
            return ones(shape, x.dtype)
        return ones_like(x)


def _aggregate(grads, key):
    """The summed gradient of `key` (None when it has none); sums once and keeps the sum."""
    lst = grads.get(key)
    if not lst:
        return None
    if len(lst) > 1:
        lst[:] = [_sum_gradients(lst)]
    return lst[0]


def _sum_gradients(lst):
    """TF's aggregation: IndexedSlices only concatenate (rows named twice add up when densified);
    any dense gradient among them makes the sum dense."""
    from eagerflow.ops.math_ops import add_n
    if all(isinstance(g, IndexedSlices) for g in lst):
        from eagerflow.ops.array_ops import concat
        lst = lst[::-1]  # the backward pass found them newest first; TF lists them in program order
        return IndexedSlices(concat([g.values for g in lst], 0), concat([g.indices for g in lst], 0),
                             lst[0].dense_shape)
    return add_n([g._as_tensor() if isinstance(g, IndexedSlices) else g for g in lst])


# Gradient functions that pass an IndexedSlices gradient through; every other one gets it densified.
_SPARSE_PASS_THROUGH = frozenset(("Identity", "ReadVariableOp"))


def _output_gradients(grads, out_keys):
    """The summed gradient of each output (None where it has none), or None when no output has one."""
    out_grads = [_aggregate(grads, k) for k in out_keys]
    for g in out_grads:
        if g is not None:
            return out_grads
    return None


def _dense(g):
    return g._as_tensor() if isinstance(g, IndexedSlices) else g


def _call_gradient(grads, fn, view, op_type, out_grads, outputs, in_keys, scope=None):
    """Runs one op's gradient function and adds each input's gradient to `grads[key]`.

    The one step both Python walks take per op: the tape's (`_backward`) and tf.gradients' over
    a graph. `view` is the op's _OpView (None: `fn` is a tf.custom_gradient backward function, called
    with the output gradients only); `in_keys` holds one key per input, None for an input whose
    gradient is not accumulated (a dtype that carries none, or an input no source reaches);
    `scope` names the name scope the gradient ops go under."""
    for k, g in zip(in_keys, _input_gradients(fn, view, op_type, out_grads, outputs, in_keys, scope)):
        if g is None:
            continue
        lst = grads.get(k)
        if lst is None:
            grads[k] = [g]
        else:
            lst.append(g)


def _input_gradients(fn, view, op_type, out_grads, outputs, in_keys, scope=None):
    """The gradient function's result, one per input: None where `in_keys` holds None, else a
    tensor, an IndexedSlices or None. Densifies IndexedSlices output gradients (but for the
    pass-through ops), gives zeros for missing ones and raises TF's error for a wrong count."""
    if op_type not in _SPARSE_PASS_THROUGH:
        out_grads = [g if g is None or isinstance(g, _Tensor) else _dense(g) for g in out_grads]
    if len(outputs) > 1 and not getattr(fn, "accepts_none_gradients", False):
        # Gradient functions get a tensor for every differentiable output (unless they say they
        # take None for outputs with no gradient: function calls, whose saved values are extra
        # outputs).
        out_grads = [_zeros_for(o) if g is None and _is_trainable(o.dtype) and o.dtype != dtypes.resource else g
                     for g, o in zip(out_grads, outputs)]
    if scope is not None:
        from eagerflow.framework.ops import name_scope
        with name_scope(scope):
            in_grads = fn(view, *out_grads)
    elif view is None:
        in_grads = fn(*out_grads)
    else:
        in_grads = fn(view, *out_grads)
    if not isinstance(in_grads, (list, tuple)):
        in_grads = [in_grads]
    if len(in_grads) != len(in_keys):
        raise (_tape_count_error(op_type, len(in_keys), len(in_grads)) if view is None else
               view._count_error(len(in_keys), len(in_grads)))
    out = []
    for k, g in zip(in_keys, in_grads):
        if k is None or g is None:
            g = None
        elif not isinstance(g, _Tensor) and not isinstance(g, IndexedSlices):
            from eagerflow.framework.convert import convert_to_tensor
            g = convert_to_tensor(g)
        out.append(g)
    return out


def _python_gradient(pruned, out_grads):
    """The C++ walk's callback for an entry without a C++ gradient: its input gradients (None for
    a non-differentiable op). `pruned` is the entry as Tape.prune gives it."""
    entry, op_type, name, inputs, outputs, _, in_keys, skip, custom = pruned
    if custom is not None:
        return _input_gradients(custom, None, op_type, out_grads, outputs, in_keys)
    fn = get_gradient_function(op_type)  # LookupError when nothing is registered
    if fn is None:  # non-differentiable: its inputs get no gradient
        return None
    return _input_gradients(fn, _OpView(entry, skip, op_type, inputs, outputs, name), op_type, out_grads, outputs,
                            in_keys)


# Whether eager tapes take the C++ walk (benchmarks and tests turn it off to compare).
_native_walk = True


def _backward(ctape, target_keys, initial_grads, source_keys):
    """Runs the gradient functions of the entries between sources and targets.

    Returns {tensor key: [gradients]} (at least for the source keys)."""
    if _native_walk and ctape.eager:
        # The same walk in C++ (cpp/autodiff/backward.h): C++ gradients for the common ops on
        # float and double tensors, the functions registered here for the rest.
        return ctape.backward(target_keys, initial_grads, source_keys, _python_gradient, _sum_gradients)
    grads = {}
    for k, g in zip(target_keys, initial_grads):
        if g is not None:
            grads.setdefault(k, []).append(g)
    # C++ hands each entry over with its keys, trainable inputs and skipped inputs worked out.
    for entry, op_type, name, inputs, outputs, out_keys, in_keys, skip, custom in ctape.prune(target_keys,
                                                                                               source_keys):
        out_grads = _output_gradients(grads, out_keys)
        if out_grads is None:
            continue
        if custom is not None:
            _call_gradient(grads, custom, None, op_type, out_grads, outputs, in_keys)
            continue
        fn = get_gradient_function(op_type)  # LookupError when nothing is registered
        if fn is not None:  # None: non-differentiable, its inputs get no gradient
            _call_gradient(grads, fn, _OpView(entry, skip, op_type, inputs, outputs, name), op_type, out_grads,
                           outputs, in_keys)
    return grads


def _handle_or_tensor(x, what):
    if isinstance(x, Variable):
        return x._handle
    if isinstance(x, _Tensor):
        return x
    if x is None:
        raise TypeError("Cannot convert the argument `type_value`: None to a TensorFlow DType.")
    raise AttributeError(f"'{type(x).__name__}' object has no attribute 'dtype' (the {what} of "
                         f"GradientTape.gradient must be tensors or variables)")


def _check_output_gradient(target, og):
    ts, gs = target._shape_tuple, og._shape_tuple
    if ts is None or gs is None:
        return
    if len(ts) != len(gs) or any(a is not None and b is not None and a != b for a, b in zip(ts, gs)):
        fmt = lambda s: "[" + ",".join("?" if d is None else str(d) for d in s) + "]"  # noqa: E731
        raise errors.InvalidArgumentError(
            None, None, f"Incompatible shapes: output_gradients {fmt(gs)} vs. target {fmt(ts)}: each output "
                        f"gradient must have its target's shape")


def _gradient_flat(ctape, flat_targets, flat_sources, output_gradients, unconnected):
    """Gradients of the sum of `flat_targets` w.r.t. each of `flat_sources` (a flat list)."""
    targets = []
    for t in flat_targets:
        if isinstance(t, Variable):
            targets.append((t._handle, t))
        else:
            targets.append((_handle_or_tensor(t, "target"), t))
    sources = [_handle_or_tensor(s, "sources") for s in flat_sources]
    if output_gradients is not None:
        output_gradients = nest.flatten(output_gradients)
        if len(output_gradients) != len(targets):
            raise ValueError("The number of output_gradients (%d) must match the number of targets (%d)"
                             % (len(output_gradients), len(targets)))
    initial = []
    for i, (t, orig) in enumerate(targets):
        og = None if output_gradients is None else output_gradients[i]
        dtype = orig.dtype
        if not _is_trainable(dtype) or dtype == dtypes.resource:
            if not isinstance(orig, Variable):
                initial.append(None)
                continue
        if og is not None:
            from eagerflow.framework.convert import convert_to_tensor
            if isinstance(og, Variable):
                og = og.value()
            og = convert_to_tensor(og, dtype=dtype)
            _check_output_gradient(orig if isinstance(orig, _Tensor) else og, og)
            initial.append(og)
        elif isinstance(orig, Variable):
            with _no_recording():
                from eagerflow.ops.creation_ops import ones
                initial.append(ones(orig.shape, orig.dtype))
        else:
            initial.append(_ones_for(t))
    target_keys = [_core.tensor_key(t) for t, _ in targets]
    source_keys = [_core.tensor_key(s) for s in sources]
    grads = _backward(ctape, target_keys, initial, source_keys)
    result = []
    for s, raw, k in zip(sources, flat_sources, source_keys):
        trainable = raw.dtype in _TRAINABLE
        # A source the tape never watched (nor computed from a watched one) has no gradient, as in TF.
        g = _aggregate(grads, k) if trainable and ctape.watching(s) else None
        if g is None and trainable:
            # A source that is itself a target gets that target's output gradient, watched or not (as in TF).
            own = [initial[i] for i, tk in enumerate(target_keys) if tk == k and initial[i] is not None]
            g = (own[0] if len(own) == 1 else _sum_gradients(own)) if own else None
        if g is None and unconnected is UnconnectedGradients.ZERO:
            g = _zeros_for(raw)
        result.append(g)
    return result


def _unconnected(value):
    if value is UnconnectedGradients.NONE or value is UnconnectedGradients.ZERO:
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError("Unknown value for unconnected_gradients: %r" % (value,)) from None


class GradientTape:
    """Records operations for automatic differentiation (tf.GradientTape)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._tape = None
        self._recording = False
        self._watched_variables = ()

    # --- recording ------------------------------------------------------------------------------
    def __enter__(self):
        self._push_tape()
        return self

    def __exit__(self, typ, value, traceback):
        if self._recording:
            self._pop_tape()

    def _push_tape(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active tape.")
        if self._tape is None:
            self._tape = _core.Tape(self._persistent, self._watch_accessed_variables)
        self._tape.push()
        self._recording = True

    def _pop_tape(self):
        if not self._recording:
            raise ValueError("Tape is not recording.")
        self._tape.pop()
        self._recording = False

    def watch(self, tensor):
        """Ensures `tensor` (a tensor, variable or nested structure of them) is traced by this tape."""
        if self._tape is None:
            raise AttributeError("'NoneType' object has no attribute '_tape' (GradientTape.watch needs an "
                                 "entered tape: use `with tf.GradientTape() as tape:`)")
        for t in nest.flatten(tensor):
            if isinstance(t, Variable):
                handle, dtype = t._handle, t.dtype
            elif isinstance(t, _Tensor):
                handle, dtype = t, t.dtype
            else:
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not tf.Tensor or "
                                 f"tf.Variable or ExtensionType.")
            if not _is_trainable(dtype):
                get_logger().warning("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r", dtype)
                continue  # integer tensors carry no gradient: their ops are not worth recording
            self._tape.watch(handle)

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stops recording operations on this tape."""
        if self._tape is None or not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop_tape()
        try:
            yield
        finally:
            self._push_tape()

    def reset(self):
        """Clears everything this tape recorded (it keeps recording if it was)."""
        recording = self._recording
        if recording:
            self._pop_tape()
        self._tape = None
        if recording:
            self._push_tape()

    def watched_variables(self):
        """The variables this tape watched, in the order it first watched them."""
        if self._tape is not None:
            self._watched_variables = self._variables_of(self._tape)
        return self._watched_variables

    @staticmethod
    def _variables_of(ctape):
        out = []
        for h in ctape.watched_variables():
            v = variable_registry.variable_of(h)
            if v is not None:
                out.append(v)
        return tuple(out)

    # --- gradients ------------------------------------------------------------------------------
    def _begin_gradient(self, what="gradients"):
        if self._tape is None:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of gradients "
                               "(or jacobians)")
        if self._recording:
            if not self._persistent:
                self._pop_tape()
            else:
                global _warned_persistent
                if not _warned_persistent:
                    _warned_persistent = True
                    get_logger().warning(
                        "Calling GradientTape.gradient on a persistent tape inside its context is significantly less "
                        "efficient than calling it outside the context (it causes the gradient ops to be recorded on "
                        "the tape, leading to increased CPU and memory usage). Only call GradientTape.gradient inside "
                        "the context if you actually want to trace the gradient in order to compute higher order "
                        "derivatives.")
        return self._tape

    def _end_gradient(self):
        if not self._persistent:
            self._watched_variables = self._variables_of(self._tape)
            self._tape = None

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of `target`)/d(each of `sources`), as a structure like `sources`."""
        ctape = self._begin_gradient()
        unconnected = _unconnected(unconnected_gradients)
        # A plain list or tuple of variables and tensors (the usual sources) needs no nest walk.
        plain = type(sources) in (list, tuple) and all(isinstance(s, (Variable, _Tensor)) for s in sources)
        flat_sources = list(sources) if plain else nest.flatten(sources)
        flat_targets = [target] if isinstance(target, _Tensor) else nest.flatten(target)
        try:
            flat = _gradient_flat(ctape, flat_targets, flat_sources, output_gradients, unconnected)
        finally:
            self._end_gradient()
        return type(sources)(flat) if plain else nest.pack_sequence_as(sources, flat)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None,
                 experimental_use_pfor=True):
        """d(each element of `target`)/d(sources): shape target.shape + source.shape per source."""
        ctape = self._begin_gradient()
        unconnected = _unconnected(unconnected_gradients)
        flat_sources = nest.flatten(sources)
        try:
            flat = _jacobian_flat(ctape, target, flat_sources, unconnected)
        finally:
            self._end_gradient()
        return nest.pack_sequence_as(sources, flat)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobians: target [b, y...], source [b, x...] -> [b, y..., x...]."""
        ctape = self._begin_gradient()
        unconnected = _unconnected(unconnected_gradients)
        try:
            return _batch_jacobian(ctape, target, source, unconnected)
        finally:
            self._end_gradient()


def _static_shape(t, what):
    shape = t._shape_tuple
    if shape is None or None in shape:
        raise ValueError(f"GradientTape.{what} needs a fully known {'target' if what else ''} shape here, got "
                         f"{shape}")
    return tuple(shape)


def _source_shape(s):
    return tuple(s.shape.as_list()) if isinstance(s, Variable) else _static_shape(s, "jacobian")


def _jacobian_flat(ctape, target, flat_sources, unconnected):
    from eagerflow.framework.convert import convert_to_tensor
    from eagerflow.ops.array_ops import reshape, stack
    from eagerflow.ops.creation_ops import zeros
    if isinstance(target, Variable):
        target = target.value()
    tshape = _static_shape(target, "jacobian")
    n = int(np.prod(tshape, dtype=np.int64))
    rows = [[] for _ in flat_sources]
    for i in range(n):
        onehot = np.zeros(n, dtype=target.dtype.as_numpy_dtype)
        onehot[i] = 1
        og = convert_to_tensor(onehot.reshape(tshape))
        gs = _gradient_flat(ctape, [target], flat_sources, [og], UnconnectedGradients.NONE)
        for j, g in enumerate(gs):
            rows[j].append(g)
    out = []
    for s, row in zip(flat_sources, rows):
        sshape = _source_shape(s)
        if all(g is None for g in row):
            out.append(zeros(tshape + sshape, s.dtype) if unconnected is UnconnectedGradients.ZERO else None)
            continue
        if n == 0:
            out.append(zeros(tshape + sshape, s.dtype))
            continue
        row = [_zeros_for(s) if g is None else g for g in row]
        out.append(reshape(stack(row), tshape + sshape))
    return out


def _batch_jacobian(ctape, target, source, unconnected):
    from eagerflow.framework.convert import convert_to_tensor
    from eagerflow.ops.array_ops import reshape, stack
    from eagerflow.ops.creation_ops import zeros
    tshape = _static_shape(target, "batch_jacobian")
    sshape = _source_shape(source)
    if len(tshape) < 1 or len(sshape) < 1:
        raise ValueError("batch_jacobian needs a target and a source of rank 1 or more (the batch dimension first)")
    if tshape[0] != sshape[0]:
        raise ValueError(f"Need first dimension of target shape ({tshape}) and source shape ({sshape}) to match.")
    b = tshape[0]
    m = int(np.prod(tshape[1:], dtype=np.int64))
    cols = []
    for j in range(m):
        onehot = np.zeros((b, m), dtype=target.dtype.as_numpy_dtype)
        onehot[:, j] = 1
        og = convert_to_tensor(onehot.reshape(tshape))
        g = _gradient_flat(ctape, [target], [source], [og], UnconnectedGradients.NONE)[0]
        cols.append(g)
    if all(g is None for g in cols):
        return zeros(tshape + sshape[1:], source.dtype) if unconnected is UnconnectedGradients.ZERO else None
    if m == 0:
        return zeros(tshape + sshape[1:], source.dtype)
    cols = [_zeros_for(source) if g is None else g for g in cols]
    return reshape(stack(cols, axis=1), tshape + sshape[1:])
