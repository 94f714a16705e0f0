"""tf.group and tf.tuple: in a graph, a NoOp that runs after a set of ops, and tensors that are
available only once all of a set are. Eagerly every op has already run: group is None and tuple
returns its tensors."""

from eagerflow.framework import nest
from eagerflow.framework.ops import Operation, control_dependencies, executing_eagerly, name_scope
from eagerflow.framework.tensor import Tensor
from eagerflow.ops import array_ops
from eagerflow.ops._execute import convert_to_tensor
from eagerflow.ops.no_op import no_op


def group(*inputs, **kwargs):
    """A NoOp named `name` (default "group_deps") with a control input on each of `inputs`."""
    if executing_eagerly():
        return None
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
    flat = nest.flatten(inputs)
    for x in flat:
        if not hasattr(x, "device"):
            raise TypeError("'inputs' should be zero or more (nested) Tensors. Received '%s' with type '%s'."
                            % (x, type(x)))
    with control_dependencies(flat):
        return no_op(name=name or "group_deps")


def tuple(tensors, control_inputs=None, name=None):  # noqa: A001 (TF's name)
    """Each of `tensors` through an Identity (an Operation through a group) that waits for all of
    them and for `control_inputs`; None entries stay None."""
    if executing_eagerly():
        return tensors
    with name_scope(name or "tuple"):
        tensors = [t if t is None or isinstance(t, Operation) or isinstance(t, Tensor) else convert_to_tensor(t)
                   for t in tensors]
        gating = [t if isinstance(t, Operation) else t.op for t in tensors if t is not None]
        for c in control_inputs or ():
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                raise TypeError("Control input must be Operation or Tensor: %s" % c)
            gating.append(c)
        order = {op.name: i for i, op in enumerate(gating[0].graph.get_operations())} if gating else {}
        unique = sorted({op.name: op for op in gating}.values(), key=lambda op: order[op.name])  # creation order
        if not unique:
            raise ValueError("Must have at least one Tensor: %s" % (tensors,))
        gate = group(*unique)
        out = []
        for t in tensors:
            if t is None:
                out.append(None)
                continue
            with control_dependencies([gate]):
                out.append(array_ops.identity(t, name="control_dependency") if isinstance(t, Tensor) else group(t))
        return out
