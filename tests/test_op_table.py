"""Every op of the C++ registry, run on its sample from tests/op_samples.py: it has inference and
a CPU kernel, graph inference agrees with the eager kernel, its gradient entry is what the table
declares and differentiable ops pass a numerical check, and elementwise ops give the same bits
forwarded and fresh, fused and unfused, as eagerly."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.framework import gradient_registry
from eagerflow.ops._execute import execute
import eagerflow.ops.gradients_impl_all  # noqa: F401

from _elementwise_common import ALL
from _optimizer_options import reset_options, set_options  # noqa: F401 (reset_options: autouse)
from gradient_checker import check_gradients, check_graph
from op_samples import SAMPLES, Entry

OPS = {d.name: d for d in _core.list_ops()}
NAMES = sorted(OPS)
ELEMENTWISE = [n for n in NAMES if OPS[n].elementwise]


def entry(name, request=None, check=None):
    """The op's table entry; marks the test xfail where the entry declares `check` a known bug."""
    e = SAMPLES.get(name)
    assert e is not None, "op %s has no sample in tests/op_samples.py" % name
    if request is not None and e.skip:
        pytest.skip(e.skip)
    if request is not None and e.xfail and check in e.xfail:
        request.applymarker(pytest.mark.xfail(reason=e.xfail[check], strict=True))
    return e


def tensors(values):
    return [x if isinstance(x, tf.Tensor) else tf.constant(x) for x in values]


# Kernel errors that depend on the values, which inference cannot see.
_VALUE_ERRORS = ("division by zero", "negative integer powers")


def _fixed_dtype(type_name):
    try:
        tf.as_dtype(type_name)
        return True
    except (TypeError, ValueError):
        return type_name == ""


# ---- the table ----

@pytest.mark.parametrize("name", NAMES)
def test_op_has_a_sample(name):
    e = entry(name)
    fields = [f for f in Entry.FIELDS if getattr(e, f) is not None]
    assert len(fields) == 1, "%s: give exactly one of %s (has %s)" % (name, Entry.FIELDS, fields)
    assert getattr(e, fields[0]), "%s: an empty %s (a reason or input names)" % (name, fields[0])
    assert e.calls, name
    names = [i.rstrip("*") for i in OPS[name].inputs]
    assert set(e.grad or ()) <= set(names), "%s: grad names %s, inputs are %s" % (name, e.grad, names)
    assert set(e.xfail or ()) <= {"inference", "gradient", "elementwise"}, name


def test_every_sample_is_a_registered_op():
    assert not set(SAMPLES) - set(OPS), "samples of ops not in the registry: %s" % sorted(set(SAMPLES) - set(OPS))


@pytest.mark.parametrize("name", NAMES)
def test_op_has_inference_and_cpu_kernel(name):
    assert OPS[name].has_infer and OPS[name].has_cpu_kernel, name


# ---- inference agrees with the kernel ----

def _static(t):
    return None if t.shape.rank is None else tuple(t.shape.as_list())


@pytest.mark.parametrize("name", NAMES)
def test_inference_matches_kernel(name, request):
    e = entry(name, request, "inference")
    seen = set()
    for c in e.calls:
        inputs = tensors(c.inputs)
        if e.eager_raises:
            with pytest.raises(tf.errors.InvalidArgumentError, match=e.eager_raises):
                execute(name, inputs, c.attrs)
            with tf.Graph().as_default():
                execute(name, inputs, c.attrs)
            continue
        eager = execute(name, inputs, c.attrs)
        with tf.Graph().as_default():
            graph = execute(name, inputs, c.attrs)
        assert len(graph) == len(eager), name
        for k, (g, t) in enumerate(zip(graph, eager)):
            assert g.dtype == t.dtype, "%s output %d: inferred %s, kernel %s" % (name, k, g.dtype, t.dtype)
            shape = _static(g)
            if shape == tuple(t.shape):
                continue
            what = "%s output %d: inferred %s, kernel %s" % (name, k, g.shape, t.shape)
            kind = "unknown_rank" if shape is None else "unknown_dims"
            assert getattr(e, kind) or kind == "unknown_dims" and e.unknown_rank, what
            assert g.shape.is_compatible_with(t.shape), what
            seen.add(kind)
    for kind in ("unknown_dims", "unknown_rank"):
        assert kind in seen or not getattr(e, kind), "%s: %s is declared but inference never has one" % (name, kind)


def _declared(op, n_inputs):
    """The declared input index of each of n_inputs flat inputs (a list input repeats its index)."""
    n_list = n_inputs - (len(op.inputs) - 1)
    return [i for i, d in enumerate(op.inputs) for _ in range(n_list if d.endswith("*") else 1)]


def _cast_inputs(op, values, dtype):
    """The inputs with every input typed by an attr ("T") cast to `dtype`; fixed-type inputs kept."""
    out = []
    for v, i in zip(values, _declared(op, len(values))):
        a = np.asarray(v)
        if not _fixed_dtype(op.input_types[i]):
            if dtype is np.bool_:
                a = a > 0
            elif dtype is object:
                a = a.astype(str).astype(object)
            else:
                if a.dtype.kind == "c" and np.dtype(dtype).kind != "c":
                    a = a.real
                if a.dtype.kind == "f" and np.dtype(dtype).kind in "iu":
                    a = np.nan_to_num(np.sign(a) * np.ceil(np.abs(a)), posinf=9, neginf=-9)  # divisors stay nonzero
                a = a.astype(dtype)
        out.append(a)
    return out


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_inference_matches_kernel_for_every_dtype(name, request):
    """Each dtype: the kernel's dtype and shape, or the kernel's error class from inference."""
    e = entry(name, request, "inference")
    op = OPS[name]
    ran = 0
    for c in e.calls:
        for dtype in ALL:
            inputs = tensors(_elementwise_values(op, c.inputs, dtype, 1))
            try:
                out = _core.execute(op, inputs, c.attrs)
            except tf.errors.UnimplementedError:
                continue  # a conversion TF's kernels refuse when they run (Cast string to double)
            except tf.errors.OpError as err:
                if not any(m in str(err) for m in _VALUE_ERRORS):
                    with pytest.raises(type(err)):
                        _core.infer(op, inputs, c.attrs)
                continue
            ran += 1
            inferred = _core.infer(op, inputs, c.attrs)
            assert [(dt, dims) for dt, dims in inferred] == [(t._dtype_enum, list(t._shape_tuple)) for t in out], (
                name, dtype)
    assert ran, "%s ran for no dtype" % name


# ---- gradients ----

def _flat_positions(op, n_inputs, names):
    """Flat input positions of the named inputs (a list input covers all of its tensors)."""
    declared = [op.inputs[i].rstrip("*") for i in _declared(op, n_inputs)]
    return [k for k, d in enumerate(declared) if d in names]


@pytest.mark.parametrize("name", NAMES)
def test_gradient_entry_and_numerical_check(name, request):
    e = entry(name, request, "gradient")
    try:
        fn = gradient_registry.get_gradient_function(name)
        has_entry = True
    except LookupError:
        fn, has_entry = None, False
    if e.no_entry:
        assert not has_entry, "%s has a gradient entry; the table says none (%s)" % (name, e.no_entry)
        return
    assert has_entry, "gradient registry has no entry for %s" % name
    if e.no_grad:
        assert fn is None, "%s is differentiable; the table says not (%s)" % (name, e.no_grad)
        return
    assert fn is not None, "%s is registered non-differentiable" % name
    if e.grad_checked_in:
        return
    checked = 0
    for c in e.calls:
        values = [x.numpy() if isinstance(x, tf.Tensor) else np.asarray(x) for x in c.inputs]
        wrt = [i for i in _flat_positions(OPS[name], len(values), e.grad) if values[i].dtype == np.float64]
        if not wrt:
            continue
        check_gradients(name, c.inputs, c.attrs, wrt, atol=1e-5, rtol=1e-5, none_is_zero=True)
        check_graph(name, c.inputs, c.attrs, wrt)
        checked += 1
    assert checked, "%s: no call has float64 values for the inputs %s" % (name, e.grad)


# ---- elementwise ops: forwarded vs fresh outputs, fused vs unfused ----

_SIZE = 3000
_PLANS = {  # tf.config.optimizer options: fusion (remapping) and buffer forwarding (scoped_allocator)
    "fused, forwarded": {},
    "fused, fresh": {"scoped_allocator_optimization": False},
    "unfused, forwarded": {"remapping": False},
    "unfused, fresh": {"scoped_allocator_optimization": False, "remapping": False},
}
_PLAN_DTYPES = (None, np.float64, np.float32, np.int32, np.int64, np.bool_)  # None: the sample's own


def _elementwise_values(op, values, dtype, size):
    """The sample's inputs resized to `size` elements (scalars kept) with varied magnitudes, cast."""
    rng = np.random.default_rng(5)
    out = []
    for v in values:
        a = np.asarray(v)
        if a.ndim and size > 1:
            a = np.resize(a, size)
            if a.dtype.kind == "f":
                a = a * rng.uniform(0.25, 4.0, size)
        out.append(a)
    return out if dtype is None else _cast_inputs(op, out, dtype)


def _fresh(x):
    """A value the op consumes alone: Mul by one (fusable) or a Select for other dtypes."""
    if x.dtype in (tf.float32, tf.float64, tf.int32, tf.int64):
        return execute("Mul", [x, tf.constant(1, x.dtype)])[0]
    return execute("SelectV2", [tf.constant(True), x, x])[0]


def _run(opts, fn, args):
    set_options(opts)
    return tf.function(fn)(*args)


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_forwarded_fresh_fused_unfused(name, request):
    e = entry(name, request, "elementwise")
    op = OPS[name]
    ran = 0
    for c in e.calls:
        for dtype in _PLAN_DTYPES:
            args = tensors(_elementwise_values(op, c.inputs, dtype, _SIZE))

            def fn(*xs):
                return execute(name, [_fresh(x) for x in xs], c.attrs)
            try:
                want = fn(*args)
            except tf.errors.OpError:
                continue  # not a dtype of this op
            ran += 1
            shape = np.broadcast_shapes(*[tuple(x.shape) for x in args])
            for w in want:
                assert tuple(w.shape) == shape, "%s is elementwise but its output is not its inputs' shape" % name
            for plan, opts in _PLANS.items():
                got = _run(opts, fn, args)
                for g, w in zip(got, want):
                    assert g.dtype == w.dtype and g.shape == w.shape, (name, dtype, plan)
                    np.testing.assert_array_equal(g.numpy(), w.numpy(), err_msg="%s %s %s" % (name, dtype, plan))
    assert ran, "%s ran for none of %s" % (name, _PLAN_DTYPES)


_THREADED_SIZE = 70001  # over two chunks of the memory-bound grain (2^15), odd: chunks start unaligned


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_same_bits_for_every_thread_count(name, request):
    """Thread chunks start wherever the split falls; vector heads and tails must not change a bit."""
    e = entry(name, request, "elementwise")
    op = OPS[name]
    ran = 0
    try:
        for c in e.calls:
            for dtype in _PLAN_DTYPES:
                args = tensors(_elementwise_values(op, c.inputs, dtype, _THREADED_SIZE))
                results = []
                for threads in (1, 2, 3):
                    tf.config.threading.set_intra_op_parallelism_threads(threads)
                    try:
                        results.append([t.numpy() for t in execute(name, list(args), c.attrs)])
                    except tf.errors.OpError:
                        break  # not a dtype of this op
                if len(results) < 3:
                    continue
                ran += 1
                for got in results[1:]:
                    for g, w in zip(got, results[0]):
                        same = g.tolist() == w.tolist() if g.dtype == object else g.tobytes() == w.tobytes()
                        assert same, "%s %s: thread counts disagree" % (name, dtype)
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    assert ran, "%s ran for none of %s" % (name, _PLAN_DTYPES)
