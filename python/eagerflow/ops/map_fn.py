"""tf.map_fn: `fn` over the rows of `elems` (a tensor, a RaggedTensor or a structure of them). Eagerly each row
is a Python call; in a graph the rows run in a tf.while_loop writing TensorArrays (dense outputs)."""
from eagerflow.framework import dtypes, nest
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.ops import array_ops, control_flow_ops, math_ops, tensor_array_ops
from eagerflow.ops._execute import convert_to_tensor
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec


def _rows(x):
    return x.nrows() if isinstance(x, RaggedTensor) else array_ops.shape(x)[0]


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """The results of `fn` on each row of `elems`, stacked (ragged where the signature says so)."""
    if not callable(fn):
        raise TypeError(f"The provided function {fn.__name__ if hasattr(fn, '__name__') else fn} is not callable."
                        " fn must be callable.")
    signature = fn_output_signature if fn_output_signature is not None else dtype
    members = elems.values() if isinstance(elems, dict) else elems if isinstance(elems, (list, tuple)) else [elems]
    if any(isinstance(x, tensor_array_ops.TensorArray) for x in members):
        # TF fails on these with an AttributeError of its own; they are not rows of a tensor.
        raise TypeError("elems must be tensors (or RaggedTensors), not a TensorArray: stack() it first.")
    flat = [x if isinstance(x, RaggedTensor) else convert_to_tensor(x) for x in nest.flatten(elems)]
    if not flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. Got {}, which does not "
                         "contain any Tensors.".format(elems))
    if signature is None:  # the elements' own types (a ragged input gives ragged rows)
        signature = nest.pack_sequence_as(elems, [RaggedTensorSpec(None, x.dtype, 0) if isinstance(x, RaggedTensor)
                                                  else x.dtype for x in flat])
    static = [x.shape[0] if not isinstance(x, RaggedTensor) else x._static_nrows() for x in flat]
    n = static[0]
    if control_flow_ops._in_graph() and (n is None or any(isinstance(s, RaggedTensorSpec)
                                                          for s in nest.flatten(signature))):
        return _graph_map(fn, elems, flat, signature)
    n = int(_rows(flat[0])) if n is None else n
    results = [fn(nest.pack_sequence_as(elems, [x[i] for x in flat])) for i in range(n)]
    sig_flat = nest.flatten(signature)
    per_output = list(zip(*[nest.flatten(r) for r in results])) if results else [[] for _ in sig_flat]
    out = [_stack_rows(list(rows), spec) for rows, spec in zip(per_output, sig_flat)]
    structure = results[0] if results else signature
    return nest.pack_sequence_as(structure, out)


def _stack_rows(rows, spec):
    if isinstance(spec, RaggedTensorSpec):
        rows = [r if isinstance(r, RaggedTensor) else convert_to_tensor(r, spec.dtype._type_enum) for r in rows]
        if rows and isinstance(rows[0], RaggedTensor):
            from eagerflow.ops.ragged.ragged_array_ops import stack
            return stack(rows)
        lengths = [array_ops.shape(r, out_type=dtypes.int64)[0] for r in rows]
        values = array_ops.concat(rows, 0) if rows else convert_to_tensor([], spec.dtype._type_enum)
        return RaggedTensor.from_row_lengths(values, array_ops.stack(lengths) if lengths else
                                             convert_to_tensor([], dtypes.int64._type_enum), validate=False)
    dtype = dtypes.as_dtype(spec.dtype if isinstance(spec, TensorSpec) else spec)
    return array_ops.stack([r if hasattr(r, "dtype") else convert_to_tensor(r, dtype._type_enum) for r in rows])


def _graph_map(fn, elems, flat, signature):
    if any(isinstance(x, RaggedTensor) for x in flat) or any(isinstance(s, RaggedTensorSpec)
                                                             for s in nest.flatten(signature)):
        raise NotImplementedError("tf.map_fn over ragged values in a graph with an unknown number of rows")
    n = _rows(flat[0])
    sig_flat = nest.flatten(signature)
    tas = [tensor_array_ops.TensorArray(s.dtype if isinstance(s, TensorSpec) else dtypes.as_dtype(s), size=n)
           for s in sig_flat]

    def body(i, *tas):
        out = nest.flatten(fn(nest.pack_sequence_as(elems, [array_ops.gather(x, i) for x in flat])))
        return (i + 1,) + tuple(ta.write(i, o) for ta, o in zip(tas, out))

    result = control_flow_ops.while_loop(lambda i, *_: math_ops.less(i, n), body, (0,) + tuple(tas))
    return nest.pack_sequence_as(signature, [ta.stack() for ta in result[1:]])
