"""tf.gradients and tf.hessians: symbolic gradients of a graph being built (tf.function, tf.Graph).

The backward pass walks the graph's nodes between `xs` and `ys` newest first (node ids are a
topological order) and calls each op type's registered gradient function with a view of the
node, the same functions GradientTape calls; the gradient ops go under the `gradients/` scope
with one `<op>_grad` scope per differentiated node, as in TF.
"""
from eagerflow import _core
from eagerflow.eager import backprop
from eagerflow.eager.backprop import UnconnectedGradients
from eagerflow.framework import dtypes
from eagerflow.framework import nest
from eagerflow.framework.gradient_registry import get_gradient_function
from eagerflow.framework.indexed_slices import IndexedSlices
from eagerflow.ops.variables import Variable

_Tensor = _core.Tensor


class _NodeView(backprop._OpView):
    """What a gradient function sees of a graph node: the tape's view over a _core.Node."""

    __slots__ = ()

    def __init__(self, node, outputs):
        super().__init__(node, None, node.type, node.inputs(), outputs, node.name)

    def _count_error(self, expected, received):
        from eagerflow.framework.ops import Operation
        return ValueError("Num gradients %d generated for op %s do not match num inputs %d"
                          % (received, Operation(self._entry).node_def, expected))

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self.name, self.type)


def _key(t):
    return _core.tensor_key(t)


def _as_graph_tensor(x, what):
    if isinstance(x, Variable):
        # The graph's tensor for the handle: a variable argument's placeholder, else the Const the
        # graph holds the handle in (one per handle: reads of the variable take it as input).
        x = _core.resource_argument_of(x.handle)
        if not x._is_symbolic:
            x = _core.graph_constant(x, "Const")
    if not isinstance(x, _Tensor):
        from eagerflow.framework.convert import convert_to_tensor
        x = convert_to_tensor(x)
    return x


def _node_of(t):
    return t.op._node if t._is_symbolic else None


def _eager_error():
    return RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                        "instead.")


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
    """The symbolic derivatives of sum(ys) with respect to each of xs (a list, None where unconnected)."""
    if _core.current_graph() is None:
        raise _eager_error()
    unconnected = backprop._unconnected(unconnected_gradients)
    from eagerflow.framework.ops import name_scope
    ys = [_as_graph_tensor(y, "ys") for y in nest.flatten(ys)]
    xs = [_as_graph_tensor(x, "xs") for x in nest.flatten(xs)]
    if grad_ys is not None:
        grad_ys = nest.flatten(grad_ys)
        if len(grad_ys) != len(ys):
            raise ValueError(f"Length mismatch. Passed {len(grad_ys)} grad_ys for {len(ys)} ys")
    stop_nodes = {_node_of(t) for t in nest.flatten(stop_gradients or []) if isinstance(t, _Tensor)}
    with name_scope(name or "gradients"):
        grads = {}
        for i, y in enumerate(ys):
            g = None if grad_ys is None else grad_ys[i]
            if g is None:
                if not backprop._is_trainable(y.dtype) or y.dtype == dtypes.resource:
                    continue
                if y.dtype.is_complex:  # which real loss is meant is ambiguous
                    raise TypeError(f"Gradients of complex tensors ({y}) must set grad_ys (y.dtype = {y.dtype.name})")
                with name_scope(f"grad_ys_{i}"):
                    g = backprop._ones_for(y)
            elif not isinstance(g, (_Tensor, IndexedSlices)):
                from eagerflow.framework.convert import convert_to_tensor
                g = convert_to_tensor(g, dtype=y.dtype)
            grads.setdefault(_key(y), []).append(g)
        for node in _between(ys, xs, stop_nodes):
            _backprop_node(node, grads)
        result = []
        for x in xs:
            g = backprop._aggregate(grads, _key(x)) if backprop._is_trainable(x.dtype) else None
            if g is None and unconnected is UnconnectedGradients.ZERO:
                g = backprop._zeros_for(x)
            result.append(g)
    return result


def _between(ys, xs, stop_nodes):
    """The nodes on a path from an x to a y, newest first; a stop_gradients node passes nothing."""
    graph_nodes = {}
    for y in ys:
        n = _node_of(y)
        if n is not None:
            for m in n.graph.nodes():
                graph_nodes[m.id] = m
            break
    ordered = [graph_nodes[i] for i in sorted(graph_nodes)]
    x_keys = {_key(x) for x in xs}
    # Forward: nodes that read an x, directly or through other such nodes.
    reached, reached_keys = set(), set(x_keys)
    for n in ordered:
        if n in stop_nodes:
            continue
        if any(_key(t) in reached_keys for t in n.inputs()):
            reached.add(n)
            reached_keys.update(_key(t) for t in n.outputs())
    # Backward: of those, the ones a y depends on.
    needed, stack = set(), [_node_of(y) for y in ys if _node_of(y) is not None]
    while stack:
        n = stack.pop()
        if n in needed or n not in reached:
            continue
        needed.add(n)
        stack.extend(_node_of(t) for t in n.inputs())
    return [n for n in reversed(ordered) if n in needed]


def _backprop_node(node, grads):
    outputs = node.outputs()
    out_grads = backprop._output_gradients(grads, [_key(o) for o in outputs])
    if out_grads is None:
        return
    fn = get_gradient_function(node.type)
    if fn is None:
        return
    view = _NodeView(node, outputs)
    in_keys = [_key(x) if backprop._is_trainable(x.dtype) else None for x in view.inputs]
    backprop._call_gradient(grads, fn, view, node.type, out_grads, outputs, in_keys, scope=node.name + "_grad")


def gradients_v1(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False, gate_gradients=False,
                 aggregation_method=None, stop_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
    """tf.compat.v1.gradients: tf.gradients with TF1's argument order."""
    return gradients(ys, xs, grad_ys, name, gate_gradients, aggregation_method, stop_gradients,
                     unconnected_gradients)


def hessians_v1(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
                aggregation_method=None):
    """tf.compat.v1.hessians: tf.hessians with TF1's argument order."""
    return hessians(ys, xs, gate_gradients, aggregation_method, name)


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """The Hessian of sum(ys) with respect to each x: shape x.shape + x.shape (tf.hessians)."""
    if _core.current_graph() is None:
        raise _eager_error()
    from eagerflow.ops.array_ops import reshape, stack
    xs = [_as_graph_tensor(x, "xs") for x in nest.flatten(xs)]
    out = []
    for x, g in zip(xs, gradients(ys, xs, name=name)):
        if g is None:
            out.append(None)
            continue
        shape = x._shape_tuple
        if shape is None or None in shape:
            raise ValueError(f"tf.hessians needs a fully known shape for {x!r}; got {x.shape}")
        n = 1
        for d in shape:
            n *= d
        flat = reshape(g, [-1])
        rows = []
        for j in range(n):
            row = gradients(flat[j], x, name=name)[0]
            rows.append(backprop._zeros_for(x) if row is None else row)
        out.append(reshape(stack(rows), list(shape) + list(shape)))
    return out
