"""tf.einsum and tf.tensordot, lowered to Transpose, Reshape, BatchMatMulV2 and Sum, which is also how
TF's Einsum kernel computes (its gradient then follows from theirs)."""
import functools
import re

from eagerflow.framework import errors
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops, linalg_ops, reduction_ops

_LABELS = re.compile(r"^[a-zA-Z.]*$")
_ELLIPSIS_LABELS = [chr(c) for c in range(0x100, 0x140)]  # stand-ins for the dims "..." covers


def _parse(equation, operands):
    """Each operand's labels ("..." expanded to stand-ins) and the output's."""
    return _parse_ranks(equation, tuple(x.shape.rank for x in operands))


@functools.lru_cache(maxsize=256)
def _parse_ranks(equation, ranks):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
        implicit = False
    else:
        lhs, out, implicit = eq, None, True
    inputs = lhs.split(",")
    if len(inputs) != len(ranks):
        raise ValueError(f"Unable to parse einsum equation: `{equation}`: expected {len(inputs)} operands but got "
                         f"{len(ranks)}.")
    for term in inputs + ([out] if out is not None else []):
        if not _LABELS.match(term) or term.replace("...", "").count(".") or term.count("...") > 1:
            raise ValueError(f"Invalid einsum equation: {equation}")
    ell_rank = 0
    expanded = []
    for term, rank in zip(inputs, ranks):
        if "..." in term:
            n = rank - (len(term) - 3)
            if n < 0:
                raise errors.InvalidArgumentError(None, None, f"Expected input to have rank at least "
                                                  f"{len(term) - 3} but got: {rank}")
            ell_rank = max(ell_rank, n)
            term = term.replace("...", "".join(_ELLIPSIS_LABELS[ell_rank - n:ell_rank] if n else []))
        elif len(term) != rank:
            raise errors.InvalidArgumentError(None, None, f"Expected input {len(expanded)} to have rank "
                                              f"{len(term)} but got: {rank}")
        expanded.append(term)
    ell = "".join(_ELLIPSIS_LABELS[:ell_rank])
    # operands with fewer "..." dims broadcast against the last ones of the longest
    expanded = [t if not any(c in _ELLIPSIS_LABELS for c in t) else _align(t, ell) for t in expanded]
    if implicit:
        counts = {}
        for t in expanded:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    for c in out:
        if not any(c in t for t in expanded):
            raise ValueError(f"Output subscripts contain a label that appears in no inputs: {equation}")
    return tuple(expanded), out


def _align(term, ell):
    present = [c for c in term if c in _ELLIPSIS_LABELS]
    want = ell[len(ell) - len(present):]
    table = dict(zip(present, want))
    return "".join(table.get(c, c) for c in term)


def _dims(x):
    """Static dims where known, else scalar tensors: what reshape targets are built from."""
    static = x.shape.as_list()
    if None not in static:
        return static
    dyn = array_ops.shape(x)
    return [d if d is not None else dyn[i] for i, d in enumerate(static)]


def _prod(dims):
    out = 1
    for d in dims:
        out = out * d
    return out


def _diagonal_free(term, x):
    if len(set(term)) != len(term):
        raise NotImplementedError(f"einsum with a label repeated within one operand ('{term}', a diagonal) is not "
                                  "supported by eagerflow yet.")


def _reduce_unique(term, x, keep):
    """Sums out the labels of `term` not in `keep`."""
    axes = [i for i, c in enumerate(term) if c not in keep]
    if not axes:
        return term, x
    return "".join(c for c in term if c in keep), reduction_ops.reduce_sum(x, axis=axes)


def _reshape(x, dims, target):
    """A Reshape unless the static dims already are the target."""
    if all(isinstance(d, int) for d in dims + target) and list(dims) == list(target):
        return x
    return array_ops.reshape(x, target)


def _transpose_to(term, x, order):
    if term == order:
        return x
    return array_ops.transpose(x, [term.index(c) for c in order])


def _contract(ta, a, tb, b, keep):
    """The pairwise step: labels of a and b that survive (in `keep`) become the result's."""
    ta, a = _reduce_unique(ta, a, keep + tb)
    tb, b = _reduce_unique(tb, b, keep + ta)
    batch = [c for c in ta if c in tb and c in keep]
    summed = [c for c in ta if c in tb and c not in keep]
    free_a = [c for c in ta if c not in tb]
    free_b = [c for c in tb if c not in ta]
    # An operand already laid out as the transposed matrix is passed with the matmul's transpose flag
    # instead of a Transpose (real dtypes: for complex ones the flag would add a Conj).
    real = not a.dtype.is_complex
    a_t = real and ta == "".join(batch + summed + free_a) and ta != "".join(batch + free_a + summed)
    b_t = real and tb == "".join(batch + free_b + summed) and tb != "".join(batch + summed + free_b)
    a = _transpose_to(ta, a, "".join(batch + (summed + free_a if a_t else free_a + summed)))
    b = _transpose_to(tb, b, "".join(batch + (free_b + summed if b_t else summed + free_b)))
    da, db = _dims(a), _dims(b)
    nb = len(batch)
    batch_a, batch_b = da[:nb], db[:nb]
    fa, s = (da[nb + len(summed):], da[nb:nb + len(summed)]) if a_t else (da[nb:nb + len(free_a)], da[nb + len(free_a):])
    fb = db[nb:nb + len(free_b)] if b_t else db[nb + len(summed):]
    a = _reshape(a, da, batch_a + ([_prod(s), _prod(fa)] if a_t else [_prod(fa), _prod(s)]))
    b = _reshape(b, db, batch_b + ([_prod(fb), _prod(s)] if b_t else [_prod(s), _prod(fb)]))
    # batch dims broadcast (size 1 against n), as einsum's "..." do
    c = linalg_ops.matmul(a, b, transpose_a=a_t, transpose_b=b_t)
    out_batch = _dims(c)[:nb]
    c = _reshape(c, _dims(c), out_batch + fa + fb)
    return "".join(batch + free_a + free_b), c


def einsum(equation, *inputs, **kwargs):
    """tf.einsum: Einstein summation over labelled dimensions ("ij,jk->ik", "bij,bjk->bik", "...ij->...ji")."""
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}. Expected: "
                        "name, optimize.")
    operands = [convert_to_tensor(x) for x in inputs]
    terms, out = _parse(equation, operands)
    for t, x in zip(terms, operands):
        _diagonal_free(t, x)
    term, acc = terms[0], operands[0]
    for i in range(1, len(operands)):
        later = "".join(terms[i + 1:])
        term, acc = _contract(term, acc, terms[i], operands[i], out + later)
    term, acc = _reduce_unique(term, acc, out)
    return _transpose_to(term, acc, out)


def tensordot(a, b, axes, name=None):
    """tf.tensordot: sums the products of `a` and `b` over the given axes (an int: the last `axes` of a with
    the first of b; or a pair of axis lists)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    ra, rb = a.shape.rank, b.shape.rank
    axes_shape = getattr(axes, "shape", None)
    axes_rank = len(axes_shape) if isinstance(axes_shape, tuple) else getattr(axes_shape, "rank", None)
    if isinstance(axes, int) or axes_rank == 0:
        n = int(axes)
        if n < 0:
            raise ValueError(f"'axes' must be at least 0. Received: axes={n}.")
        if n > ra or n > rb:
            raise ValueError(f"'axes' must not be larger than the number of dimensions of tensor {a if n > ra else b}. "
                             f"Received {n}, vs tensor dimensions {ra if n > ra else rb}.")
        axes_a, axes_b = list(range(ra - n, ra)), list(range(n))
    else:
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        axes_a, axes_b = axes
        axes_a = [int(axes_a)] if isinstance(axes_a, int) else [int(x) for x in axes_a]
        axes_b = [int(axes_b)] if isinstance(axes_b, int) else [int(x) for x in axes_b]
        if len(axes_a) != len(axes_b):
            raise ValueError(f"Different number of contraction axes `a` and `b`, {len(axes_a)} != {len(axes_b)}.")
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ta = list(letters[:ra])
    tb = list(letters[ra:ra + rb])
    for i, j in zip(axes_a, axes_b):
        for k, r in ((i, ra), (j, rb)):
            if not -r <= k < r:  # TF's GatherV2 of the axis out of range
                raise errors.InvalidArgumentError(None, None, f"indices[0] = {k} is not in [0, {r}) [Op:GatherV2]")
        tb[j % rb] = ta[i % ra]
    out = [c for c in ta if c not in tb] + [c for c in tb if c not in ta]
    return einsum(f"{''.join(ta)},{''.join(tb)}->{''.join(out)}", a, b)
