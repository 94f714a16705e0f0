"""Ragged tensors through the dense APIs (TF's ragged dispatch): elementwise ops run on the flat
values, reductions over a ragged axis sum by row or pad to dense, concat and stack join rows. Each
handler registers once in framework/dispatch.py for a family of APIs, none per op."""
from eagerflow import _core
from eagerflow.framework import dispatch, dtypes, errors
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops import nn_activation_ops  # noqa: F401  (its activations join the unary APIs registered below)
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor

_INT64 = dtypes.int64


def _i64(v):
    return convert_to_tensor(v, _INT64._type_enum)


def _same_splits(a, b):
    """Whether a and b partition their values alike (checked now when eager, as TF asserts)."""
    sa, sb = a.nested_row_splits, b.nested_row_splits
    if len(sa) != len(sb):
        return False
    for x, y in zip(sa, sb):
        if x is y:
            continue
        if x._is_symbolic or y._is_symbolic:
            continue
        xv, yv = x._numpy(), y._numpy()
        if xv.shape != yv.shape or (xv != yv).any():
            raise errors.InvalidArgumentError(None, None, "Inputs must have identical ragged splits.\n"
                                                          "Condition x == y did not hold.")
    return True


def map_flat_values(op, *args, **kwargs):
    """op applied to the flat values of every RaggedTensor argument (they must share row partitions);
    the result has their partitions."""
    ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    first = ragged[0]
    for other in ragged[1:]:
        if not _same_splits(first, other):
            raise ValueError("All ragged inputs must have the same ragged_rank.")
    unwrap = lambda a: a.flat_values if isinstance(a, RaggedTensor) else a  # noqa: E731
    out = op(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return first.with_flat_values(out)


def _unary(api, x, *args, **kwargs):
    if not isinstance(x, RaggedTensor):
        return NotImplemented
    return first_with(x, api(x.flat_values, *args, **kwargs))


def first_with(rt, flat):
    return rt.with_flat_values(flat)


def _dense_operand(rt, d):
    """A dense operand of a binary op with `rt`, as something that combines with rt's flat values:
    a value broadcasting against the uniform inner dims, or a [nrows, 1, ...] tensor spread over
    the rows' values (ragged_rank 1)."""
    d = d if isinstance(d, _core.Tensor) else convert_to_tensor(d, rt.dtype._type_enum)
    inner = rt.flat_values.shape.rank - 1
    if d.shape.rank is not None and d.shape.rank <= inner:
        return d
    if rt.ragged_rank == 1 and d.shape.rank == rt.shape.rank:
        if d.shape[1] not in (1, None):
            raise ValueError(f"Incompatible shapes: {rt.shape} vs {d.shape}")
        d = array_ops.squeeze(d, axis=[1])
        if d.shape[0] == 1:
            return array_ops.gather(d, _i64(0))
        return array_ops.gather(d, rt.value_rowids())
    if d.shape.rank is not None and d.shape.rank == rt.shape.rank - 1:
        # [1, inner...] or [k] against the ragged dimension: only size-1 dims broadcast over it.
        if d.shape[0] == 1:
            return array_ops.reshape(d, d.shape.as_list()[1:]) if d.shape.rank > 1 else array_ops.reshape(d, [])
    raise ValueError(f"Unable to broadcast dense shape {d.shape} against ragged shape {rt.shape}")


def _binary(api, x, y, *args, **kwargs):
    if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
        if x.ragged_rank != y.ragged_rank:
            raise ValueError("Ragged inputs must have the same ragged_rank.")
        _same_splits(x, y)
        return x.with_flat_values(api(x.flat_values, y.flat_values, *args, **kwargs))
    if isinstance(x, RaggedTensor):
        return x.with_flat_values(api(x.flat_values, _dense_operand(x, y), *args, **kwargs))
    if isinstance(y, RaggedTensor):
        if not isinstance(x, _core.Tensor):
            x = convert_to_tensor(x, y.dtype._type_enum)
        return y.with_flat_values(api(_dense_operand(y, x), y.flat_values, *args, **kwargs))
    return NotImplemented


dispatch.register_unary_elementwise(_unary)
dispatch.register_binary_elementwise(_binary)


# ---- reductions ----

def _identity(kind, dtype):
    """The value a reduction gives an empty row (TF's unsorted segment reductions)."""
    if kind == "max":
        return dtype.min
    if kind == "min":
        return dtype.max
    if kind in ("prod", "all"):
        return True if dtype == dtypes.bool else 1
    return False if dtype == dtypes.bool else 0


_REDUCERS = {}


def _reduce_rows(kind, rt):
    """Reduces each row of rt (ragged_rank 1 on the values' first axis): values [n, ...] -> [nrows, ...]."""
    dense_reduce = _REDUCERS[kind]
    if kind == "sum":
        return execute1("UnsortedSegmentSum", [rt.values, rt.value_rowids(), rt.nrows()])
    dense = rt.to_tensor(default_value=_identity(kind, rt.dtype))
    return dense_reduce(dense, axis=1)


def _reduce_axis(kind, rt, axis):
    """One axis of rt reduced (the result ragged where a ragged axis remains)."""
    dense_reduce = _REDUCERS[kind]
    rank = rt.shape.rank
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds for rank {rank}")
    if axis == 0:
        if rt.ragged_rank > 1:
            raise NotImplementedError("reducing axis 0 of a RaggedTensor with ragged_rank > 1")
        return dense_reduce(rt.to_tensor(default_value=_identity(kind, rt.dtype)), axis=0)
    if axis == 1:
        if isinstance(rt.values, RaggedTensor):
            raise NotImplementedError("reducing axis 1 of a RaggedTensor with ragged_rank > 1")
        return _reduce_rows(kind, rt)
    values = rt.values
    inner = _reduce_axis(kind, values, axis - 1) if isinstance(values, RaggedTensor) else \
        dense_reduce(values, axis=axis - 1)
    return rt.with_values(inner)


def _reduce(kind, input_tensor, axis=None, keepdims=False, name=None):
    rt = input_tensor
    if not isinstance(rt, RaggedTensor):
        return NotImplemented
    if axis is None:
        return _REDUCERS[kind](rt.flat_values, keepdims=False) if not keepdims else \
            _REDUCERS[kind](rt.to_tensor(default_value=_identity(kind, rt.dtype)), keepdims=True)
    axes = [axis] if not isinstance(axis, (list, tuple)) else list(axis)
    rank = rt.shape.rank
    axes = sorted({a + rank if a < 0 else a for a in axes}, reverse=True)
    result = rt
    for a in axes:
        result = _reduce_axis(kind, result, a) if isinstance(result, RaggedTensor) else \
            _REDUCERS[kind](result, axis=a)
    if keepdims:
        for a in sorted(axes):
            result = array_ops.expand_dims(result, a) if not isinstance(result, RaggedTensor) else \
                map_flat_values(array_ops.expand_dims, result, a - result.ragged_rank)
    return result


def _mean(input_tensor, axis=None, keepdims=False, name=None):
    if not isinstance(input_tensor, RaggedTensor):
        return NotImplemented
    total = _reduce("sum", input_tensor, axis, keepdims)
    count = _reduce("sum", input_tensor.with_flat_values(creation_ops.ones_like(input_tensor.flat_values)), axis,
                    keepdims)
    return math_ops.truediv(total, count)


for _kind, _api in (("sum", reduction_ops.reduce_sum), ("max", reduction_ops.reduce_max),
                    ("min", reduction_ops.reduce_min), ("prod", reduction_ops.reduce_prod),
                    ("any", reduction_ops.reduce_any), ("all", reduction_ops.reduce_all)):
    _REDUCERS[_kind] = _api._dispatch_target
    dispatch.register(_api, lambda *a, _k=_kind, **kw: _reduce(_k, *a, **kw))
dispatch.register(reduction_ops.reduce_mean, _mean)


# ---- concat and stack ----

def _as_ragged(values):
    if not isinstance(values, (list, tuple)) or not any(isinstance(v, RaggedTensor) for v in values):
        return None
    out = []
    for v in values:
        if not isinstance(v, RaggedTensor):
            v = RaggedTensor.from_tensor(v)
        out.append(v)
    if len({v.ragged_rank for v in out}) != 1:
        raise ValueError("All inputs to concat must have the same ragged_rank.")
    return out


def _concat_rows(rts):
    """Axis 0: the rows of each in turn."""
    values = (_concat_rows([r.values for r in rts]) if isinstance(rts[0].values, RaggedTensor)
              else array_ops.concat([r.values for r in rts], 0))
    parts, offset = [rts[0].row_splits], rts[0].row_splits[-1]
    for r in rts[1:]:
        parts.append(math_ops.add(r.row_splits[1:], offset))
        offset = math_ops.add(offset, r.row_splits[-1])
    return RaggedTensor._wrap(values, array_ops.concat(parts, 0))


def _concat_within_rows(rts):
    """Axis 1 (ragged_rank 1): row i of the result is row i of each input, joined."""
    from eagerflow.ops.ragged.ragged_getitem import ranges
    lengths = [r.row_lengths() for r in rts]
    total = math_ops.add_n(lengths) if len(lengths) > 1 else lengths[0]
    splits = array_ops.concat([_i64([0]), reduction_ops.cumsum(total)], 0)
    before = creation_ops.zeros_like(total)
    positions = []
    for r, n in zip(rts, lengths):
        pos, _ = ranges(math_ops.add(splits[:-1], before), n)
        positions.append(pos)
        before = math_ops.add(before, n)
    # Each input's values go to their places: a permutation of all values, inverted by a gather.
    order = array_ops.concat(positions, 0)
    values = array_ops.concat([r.values for r in rts], 0)
    inverse = execute1("InvertPermutation", [order])
    return RaggedTensor._wrap(array_ops.gather(values, inverse), splits)


def _concat(values, axis, name="concat"):
    rts = _as_ragged(values)
    if rts is None:
        return NotImplemented
    rank = rts[0].shape.rank
    if axis < 0:
        axis += rank
    if axis == 0:
        return _concat_rows(rts)
    if axis == 1 and rts[0].ragged_rank == 1:
        return _concat_within_rows(rts)
    if axis > rts[0].ragged_rank:
        return map_flat_values(lambda *vs: array_ops.concat(list(vs), axis - rts[0].ragged_rank), *rts)
    raise NotImplementedError(f"concat of ragged tensors on axis {axis}")


def _stack(values, axis=0, name="stack"):
    rts = _as_ragged(values)
    if rts is None:
        return NotImplemented
    if axis != 0:
        raise NotImplementedError("stack of ragged tensors on an axis other than 0")
    rows = _concat_rows(rts)
    counts = array_ops.stack([r.nrows() for r in rts])
    return RaggedTensor.from_row_lengths(rows, counts, validate=False)


dispatch.register(array_ops.concat, _concat)
dispatch.register(array_ops.stack, _stack)


# ---- operators ----

def _op(api, reflected=False):
    if reflected:
        return lambda self, other: api(other, self)
    return lambda self, other: api(self, other)


for _name, _api in (("add", math_ops.add), ("sub", math_ops.subtract), ("mul", math_ops.multiply),
                    ("truediv", math_ops.truediv), ("floordiv", math_ops.floordiv), ("mod", math_ops.floormod),
                    ("pow", math_ops.pow), ("and", math_ops.logical_and), ("or", math_ops.logical_or),
                    ("xor", math_ops.logical_xor)):
    setattr(RaggedTensor, f"__{_name}__", _op(_api))
    setattr(RaggedTensor, f"__r{_name}__", _op(_api, True))
for _name, _api in (("lt", math_ops.less), ("le", math_ops.less_equal), ("gt", math_ops.greater),
                    ("ge", math_ops.greater_equal), ("eq", math_ops.equal), ("ne", math_ops.not_equal)):
    setattr(RaggedTensor, f"__{_name}__", _op(_api))
RaggedTensor.__hash__ = object.__hash__
RaggedTensor.__neg__ = lambda self: math_ops.negative(self)
RaggedTensor.__abs__ = lambda self: math_ops.abs(self)
RaggedTensor.__invert__ = lambda self: math_ops.logical_not(self)
