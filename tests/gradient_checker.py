"""Numerical gradient checking for registered gradient functions, without a tape.

The op runs eagerly through `_execute.execute`; an `OpView` (type, name, inputs, outputs,
get_attr) stands for the recorded op. The theoretical Jacobian feeds one-hot output gradients to
the registered gradient function; the numerical one takes float64 central differences of the op.
`check_graph` builds the same op and its gradient in a tf.Graph with unknown-dimension
placeholders and compares against the eager gradient (gradients must work in both modes).
"""
import numpy as np

import eagerflow as tf
from eagerflow.framework.gradient_registry import get_gradient_function
from eagerflow.ops import _execute
import eagerflow.ops.gradients_impl_all  # noqa: F401  (registers every gradient module)

_FLOATS = (np.float16, np.float32, np.float64, np.complex64, np.complex128)


class OpView:
    """The Operation-like object a gradient function receives."""

    def __init__(self, op_type, inputs, outputs, attrs=None):
        self.type = op_type
        self.name = op_type
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self._attrs = dict(attrs or {})

    def get_attr(self, name):
        if name not in self._attrs:
            raise ValueError("Operation '%s' has no attr named '%s'." % (self.name, name))
        return self._attrs[name]


def _tensor(x):
    return x if isinstance(x, tf.Tensor) else tf.constant(x)


def run_op(op_type, inputs, attrs=None):
    return list(_execute.execute(op_type, [_tensor(x) for x in inputs], attrs))


def default_wrt(inputs):
    return [i for i, x in enumerate(inputs) if np.asarray(x).dtype.type in _FLOATS]


def call_gradient(op_type, inputs, attrs, out_grads):
    """Runs the op and calls its gradient function with `out_grads` (None entries allowed)."""
    inputs = [_tensor(x) for x in inputs]
    outs = run_op(op_type, inputs, attrs)
    f = get_gradient_function(op_type)
    res = f(OpView(op_type, inputs, outs, attrs), *[None if g is None else _tensor(g) for g in out_grads])
    # A sparse gradient (IndexedSlices, as a gather's) is checked as the dense tensor it stands for.
    res = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in res]
    assert len(res) == len(inputs), "%s gradient returned %d gradients for %d inputs" % (op_type, len(res),
                                                                                         len(inputs))
    return res


def theoretical_jacobian(op_type, inputs, attrs=None, wrt=None, unused_as_none=False, none_is_zero=False):
    """{input index: J} with J[i, k] = d(output element k) / d(input element i), outputs concatenated.

    With unused_as_none, the outputs other than the one being differentiated get None gradients
    (as a tape passes for unused outputs) instead of zeros. With none_is_zero, a None input
    gradient counts as zeros (piecewise-constant ops: Floor, Round)."""
    inputs = [_tensor(x) for x in inputs]
    wrt = default_wrt([x.numpy() for x in inputs]) if wrt is None else wrt
    outs = run_op(op_type, inputs, attrs)
    total = sum(int(np.prod(y.shape)) for y in outs)
    jac = {i: np.zeros((int(np.prod(inputs[i].shape)), total)) for i in wrt}
    col = 0
    for j, y in enumerate(outs):
        yv = y.numpy()
        for k in range(yv.size):
            grads = [None if unused_as_none else np.zeros_like(o.numpy()) for o in outs]
            g = np.zeros_like(yv)
            g.flat[k] = 1
            grads[j] = g
            res = call_gradient(op_type, inputs, attrs, grads)
            for i in wrt:
                r = res[i]
                if r is None and none_is_zero:
                    continue
                assert r is not None, "%s: no gradient for input %d" % (op_type, i)
                assert r.dtype == inputs[i].dtype, "%s: gradient dtype %s for a %s input" % (op_type, r.dtype,
                                                                                          inputs[i].dtype)
                assert tuple(r.shape) == tuple(inputs[i].shape), "%s: gradient shape %s for input shape %s" % (
                    op_type, r.shape, inputs[i].shape)
                jac[i][:, col] = r.numpy().ravel()
            col += 1
    return jac


def numerical_jacobian(op_type, inputs, attrs=None, wrt=None, delta=1e-6):
    inputs = [np.asarray(x.numpy() if isinstance(x, tf.Tensor) else x) for x in inputs]
    wrt = default_wrt(inputs) if wrt is None else wrt

    def flat_outputs(xs):
        return np.concatenate([y.numpy().ravel().astype(np.float64) for y in run_op(op_type, xs, attrs)] +
                              [np.zeros(0)])

    jac = {}
    for i in wrt:
        x = inputs[i]
        cols = []
        for e in range(x.size):
            xp, xm = x.copy(), x.copy()
            xp.flat[e] += delta
            xm.flat[e] -= delta
            yp = flat_outputs(inputs[:i] + [xp] + inputs[i + 1:])
            ym = flat_outputs(inputs[:i] + [xm] + inputs[i + 1:])
            cols.append((yp - ym) / (2 * delta))
        total = len(flat_outputs(inputs))
        jac[i] = np.array(cols).reshape(x.size, total)
    return jac


def check_gradients(op_type, inputs, attrs=None, wrt=None, atol=1e-6, rtol=1e-5, delta=1e-6, none_is_zero=False):
    """Asserts the registered gradient of `op_type` matches central differences (float64 inputs)."""
    inputs = [_tensor(x) for x in inputs]
    wrt = default_wrt([x.numpy() for x in inputs]) if wrt is None else wrt
    theo = theoretical_jacobian(op_type, inputs, attrs, wrt, none_is_zero=none_is_zero)
    num = numerical_jacobian(op_type, inputs, attrs, wrt, delta)
    for i in wrt:
        np.testing.assert_allclose(theo[i], num[i], atol=atol, rtol=rtol,
                                   err_msg="%s: gradient of input %d" % (op_type, i))
    if sum(1 for _ in run_op(op_type, inputs, attrs)) > 1:
        # Multi-output ops must accept None for unused outputs.
        theo_none = theoretical_jacobian(op_type, inputs, attrs, wrt, unused_as_none=True, none_is_zero=none_is_zero)
        for i in wrt:
            np.testing.assert_allclose(theo_none[i], theo[i], err_msg="%s: None output gradients" % op_type)
    return theo


def check_graph(op_type, inputs, attrs=None, wrt=None, unknown_dims=True, seed=0):
    """Builds op + gradient in a graph (float inputs and upstream gradients are placeholders with
    unknown dims when `unknown_dims`) and compares the fetched gradients with the eager ones."""
    rng = np.random.default_rng(seed)
    inputs = [_tensor(x) for x in inputs]
    wrt = default_wrt([x.numpy() for x in inputs]) if wrt is None else wrt
    outs = run_op(op_type, inputs, attrs)
    upstream = [rng.standard_normal(tuple(y.shape)).astype(y.numpy().dtype) for y in outs]
    eager = call_gradient(op_type, inputs, attrs, upstream)

    g = tf.Graph()
    with g.as_default():
        feeds = {}
        sym_inputs = []
        for i, x in enumerate(inputs):
            if i in wrt:
                shape = [None] * len(x.shape) if unknown_dims else list(x.shape)
                p = tf.compat.v1.placeholder(x.dtype, shape)
                feeds[p] = x.numpy()
                sym_inputs.append(p)
            else:
                sym_inputs.append(x)
        sym_outs = list(_execute.execute(op_type, sym_inputs, attrs))
        sym_up = []
        for y, u in zip(sym_outs, upstream):
            p = tf.compat.v1.placeholder(y.dtype, [None] * len(u.shape) if unknown_dims else list(u.shape))
            feeds[p] = u
            sym_up.append(p)
        f = get_gradient_function(op_type)
        res = [tf.convert_to_tensor(r) if isinstance(r, tf.IndexedSlices) else r
               for r in f(OpView(op_type, sym_inputs, sym_outs, attrs), *sym_up)]
        for i in wrt:  # None (no gradient) in a graph exactly where it is None eagerly
            assert (res[i] is None) == (eager[i] is None), "%s: graph gradient of input %d" % (op_type, i)
        wrt = [i for i in wrt if res[i] is not None]
        fetch = [res[i] for i in wrt]
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run(fetch, feed_dict=feeds) if fetch else []
    for i, v in zip(wrt, got):
        np.testing.assert_allclose(v, eager[i].numpy(), rtol=1e-6, atol=1e-9,
                                   err_msg="%s: graph gradient of input %d" % (op_type, i))
