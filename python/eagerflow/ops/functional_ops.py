"""tf.foldl, tf.foldr and tf.scan: `fn` applied along the rows of `elems` (a tensor or a structure of
tensors with the same number of rows), carrying an accumulator. One tf.while_loop (eagerly, a Python
loop), as TF builds them: the graph's size does not depend on the number of rows."""
from eagerflow.framework import nest
from eagerflow.framework.ops import executing_eagerly, name_scope
from eagerflow.framework.tf_logging import get_logger
from eagerflow.ops import array_ops, control_flow_ops, math_ops, tensor_array_ops
from eagerflow.ops._execute import convert_to_tensor
from eagerflow.ops.custom_gradient import stop_gradient


def _flat_elems(elems):
    flat = [convert_to_tensor(x) for x in nest.flatten(elems)]
    n = flat[0].shape[0] if flat[0].shape.rank else None  # IndexError without a tensor, as TF's
    return flat, n if n is not None else array_ops.shape(flat[0])[0]


def _rows(flat, n):
    """TensorArrays of the rows (as TF reads them: their gradients are dense, not IndexedSlices)."""
    return [tensor_array_ops.TensorArray(x.dtype, size=n, infer_shape=True).unstack(x) for x in flat]


def _row(elems, tas, i):
    return nest.pack_sequence_as(elems, [ta.read(i) for ta in tas])


def _checked_fn(fn):
    if not callable(fn):
        raise TypeError(f"{fn.__name__} is not callable. Please provide a callable function.")
    return fn


def _without_gradient(api, back_prop, result):
    """back_prop=False (deprecated in TF 2): a graph's result stops gradients; eagerly it is ignored."""
    if back_prop:
        return result
    get_logger().warning(f"calling {api} with back_prop=False is deprecated and will be removed in a future "
                         "version.\nInstructions for updating:\nback_prop=False is deprecated. Consider using "
                         "tf.stop_gradient instead.")
    return result if executing_eagerly() else nest.map_structure(stop_gradient, result)


def _fold(fn, elems, initializer, back_prop, reverse):
    fn = _checked_fn(fn)
    flat, n = _flat_elems(elems)
    rows = _rows(flat, n)
    if reverse:  # i counts the rows still to fold: row i - 1 is next
        acc, start = (_row(elems, rows, n - 1), n - 1) if initializer is None else (initializer, n)
        cond = lambda i, a: math_ops.greater(i, 0)  # noqa: E731
        body = lambda i, a: (i - 1, fn(a, _row(elems, rows, i - 1)))  # noqa: E731
    else:  # i is the next row
        acc, start = (_row(elems, rows, 0), 1) if initializer is None else (initializer, 0)
        cond = lambda i, a: math_ops.less(i, n)  # noqa: E731
        body = lambda i, a: (i + 1, fn(a, _row(elems, rows, i)))  # noqa: E731
    _, acc = control_flow_ops.while_loop(cond, body, (start, acc))
    return _without_gradient("foldr" if reverse else "foldl", back_prop, acc)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """fn(...fn(fn(initializer, elems[0]), elems[1])..., elems[n-1]); without an initializer the
    fold starts from elems[0] (and needs at least one row)."""
    with name_scope(name or "foldl"):
        return _fold(fn, elems, initializer, back_prop, reverse=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """foldl from the last row to the first."""
    with name_scope(name or "foldr"):
        return _fold(fn, elems, initializer, back_prop, reverse=True)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """The accumulators foldl (foldr when `reverse`) passes through, stacked: row i is the
    accumulator after elems[i]. Without an initializer, row 0 (row n-1 when reversed) is elems' own."""
    with name_scope(name or "scan"):
        return _scan(fn, elems, initializer, back_prop, infer_shape, reverse)


def _scan(fn, elems, initializer, back_prop, infer_shape, reverse):
    fn = _checked_fn(fn)
    flat, n = _flat_elems(elems)
    rows = _rows(flat, n)
    if initializer is None:
        first = n - 1 if reverse else 0
        acc_flat = [ta.read(first) for ta in rows]
        structure = elems
    else:
        acc_flat = [convert_to_tensor(a) for a in nest.flatten(initializer)]
        structure = initializer
    tas = [tensor_array_ops.TensorArray(a.dtype, size=n, infer_shape=infer_shape) for a in acc_flat]
    if initializer is None:
        tas = [ta.write(first, a) for ta, a in zip(tas, acc_flat)]
    step = -1 if reverse else 1
    start = (n - 1 if reverse else 0) + (step if initializer is None else 0)

    def body(i, acc, tas):
        out = fn(nest.pack_sequence_as(structure, list(acc)), _row(elems, rows, i))
        nest.assert_same_structure(structure, out)
        out_flat = [convert_to_tensor(o) for o in nest.flatten(out)]
        return i + step, tuple(out_flat), tuple(ta.write(i, o) for ta, o in zip(tas, out_flat))

    if reverse:
        cond = lambda i, acc, tas: math_ops.greater_equal(i, 0)  # noqa: E731
    else:
        cond = lambda i, acc, tas: math_ops.less(i, n)  # noqa: E731
    _, _, tas = control_flow_ops.while_loop(cond, body, (start, tuple(acc_flat), tuple(tas)))
    return _without_gradient("scan", back_prop, nest.pack_sequence_as(structure, [ta.stack() for ta in tas]))
