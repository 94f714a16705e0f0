"""Graph optimization passes (cpp/graph/passes): pruning, constant folding, CSE and elementwise
fusion on traced functions (the optimized graph before/after, results equal to eager and to the
unoptimized run) and tf.config.optimizer's options."""
import random

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

from _optimizer_options import optimized, reset_options, set_options  # noqa: F401 (reset_options: autouse)

ALL_OFF = {'disable_meta_optimizer': True}


def run_with(opts, py_fn, *args):
    """Calls a fresh tf.function of py_fn (traced under opts)."""
    set_options(opts)
    try:
        return tf.function(py_fn)(*args)
    finally:
        set_options({})


def assert_same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


def flat(v):
    return list(v) if isinstance(v, (tuple, list)) else [v]


def check_equal_everywhere(py_fn, *args):
    """Optimized function == unoptimized function == eager, bitwise."""
    eager = py_fn(*args)
    opt = run_with({}, py_fn, *args)
    plain = run_with(ALL_OFF, py_fn, *args)
    for x, y, z in zip(flat(eager), flat(opt), flat(plain)):
        assert_same(x, y)
        assert_same(y, z)
    return opt


# ---- tf.config.optimizer ----

def test_default_options_as_tf():
    assert tf.config.optimizer.get_experimental_options() == {'disable_model_pruning': False,
                                                              'disable_meta_optimizer': False}


def test_set_options_merges_in_tf_order():
    tf.config.optimizer.set_experimental_options({'remapping': False, 'constant_folding': 0})
    tf.config.optimizer.set_experimental_options({'layout_optimizer': True, 'min_graph_nodes': 3})
    got = tf.config.optimizer.get_experimental_options()
    assert list(got.items()) == [('layout_optimizer', True), ('constant_folding', False), ('remapping', False),
                                 ('disable_model_pruning', False), ('disable_meta_optimizer', False),
                                 ('min_graph_nodes', 3)]
    tf.config.optimizer.set_experimental_options({'constant_folding': None, 'bogus': True, 'auto_parallel': True})
    assert 'constant_folding' not in tf.config.optimizer.get_experimental_options()
    assert 'bogus' not in tf.config.optimizer.get_experimental_options()


def test_bad_options():
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        tf.config.optimizer.set_experimental_options({'constant_folding': 'x'})
    with pytest.raises(TypeError):
        tf.config.optimizer.set_experimental_options(None)
    with pytest.raises(ValueError):
        tf.config.optimizer.set_experimental_options(['x'])
    assert tf.config.optimizer.get_experimental_options() == {'disable_model_pruning': False,
                                                              'disable_meta_optimizer': False}


@pytest.mark.parametrize('opts,off', [
    ({'constant_folding': False}, ['constant_folding']),
    ({'disable_model_pruning': True}, ['pruning']),
    ({'arithmetic_optimization': False}, ['common_subexpression_elimination']),
    ({'remapping': False}, ['elementwise_fusion']),
    ({'disable_meta_optimizer': True}, ['pruning', 'constant_folding', 'common_subexpression_elimination',
                                        'elementwise_fusion']),
])
def test_options_switch_passes(opts, off):
    tf.config.optimizer.set_experimental_options(opts)
    core = _core.get_optimizer_options()
    for name in ['pruning', 'constant_folding', 'common_subexpression_elimination', 'elementwise_fusion']:
        assert core[name] == (name not in off), name


# ---- pruning ----

def test_pruning_removes_unused_work():
    @tf.function
    def f(x):
        unused = tf.matmul(x, x)
        tf.nn.relu(unused)
        return x + 1.0

    x = tf.ones([3, 3])
    types, _, _ = optimized(f, x)
    assert 'MatMul' not in types and 'Relu' not in types
    assert 'MatMul' in [op.type for op in f.get_concrete_function(x).graph.get_operations()]  # as traced
    set_options({'disable_model_pruning': True})
    g = tf.function(f.python_function)
    types, _, _ = optimized(g, x)
    assert 'MatMul' in types
    assert_same(g(x), f(x))


def test_function_returning_nothing_does_no_matmul():
    # The wiki's dense network traced with no return value: only the variable reads run.
    ws = [tf.Variable(tf.random.normal([a, b])) for a, b in [(8, 6), (6, 6), (6, 4)]]
    bs = [tf.Variable(tf.zeros([b])) for b in (6, 6, 4)]

    @tf.function
    def net(layer):
        for w, b in zip(ws, bs):
            layer = tf.nn.relu(tf.matmul(layer, w) + b)

    x = np.ones([5, 8], np.float32)
    types, og, _ = optimized(net, x)
    assert 'MatMul' not in types and 'Relu' not in types and 'AddV2' not in types
    assert types.count('ReadVariableOp') == 6  # stateful: always run
    assert net(x) is None


# ---- constant folding ----

def test_constant_folding():
    def f(x):
        c = tf.constant([1.0, 2.0, 3.0]) * tf.constant(2.0) - tf.constant(0.5)
        return x + tf.exp(c)

    x = tf.constant([1.0, -1.0, 0.5])
    types, _, _ = optimized(tf.function(f), x)
    assert 'Mul' not in types and 'Sub' not in types and 'Exp' not in types
    assert types.count('Const') == 1
    check_equal_everywhere(f, x)
    set_options({'constant_folding': False, 'remapping': False})
    types, _, _ = optimized(tf.function(f), x)
    assert 'Exp' in types and 'Mul' in types


def test_constant_folding_returns_constant():
    def f():
        return tf.constant(3) * tf.constant(4) + 1

    types, og, fetches = optimized(tf.function(f))
    assert types == ['Const', 'Identity'] or types.count('Const') >= 1 and 'Mul' not in types
    assert_same(check_equal_everywhere(f), np.int32(13))


def test_folding_leaves_errors_to_run_time():
    @tf.function
    def f():
        return tf.constant(1) // tf.constant(0)

    with pytest.raises(tf.errors.InvalidArgumentError, match='Integer division by zero'):
        f()


def test_stateful_ops_are_not_folded_or_merged():
    @tf.function
    def f():
        return tf.random.uniform([4]), tf.random.uniform([4])

    types, _, _ = optimized(f)
    assert types.count('RandomUniform') == 2
    a, b = f()
    c, _ = f()
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


# ---- common-subexpression elimination ----

def test_cse_merges_repeated_subexpressions():
    def f(x):
        return tf.exp(x * 2.0) + tf.exp(x * 2.0) + tf.sin(x * 2.0)

    x = tf.constant(np.linspace(-1, 1, 16, dtype=np.float32))
    set_options({'remapping': False})
    types, _, _ = optimized(tf.function(f), x)
    assert types.count('Exp') == 1 and types.count('Mul') == 1 and types.count('Const') == 1
    set_options({'remapping': False, 'arithmetic_optimization': False})
    types, _, _ = optimized(tf.function(f), x)
    assert types.count('Exp') == 2 and types.count('Mul') == 3
    set_options({})
    check_equal_everywhere(f, x)


def test_cse_keeps_variable_reads_apart():
    v = tf.Variable(1.0)

    def f():
        a = v.read_value()
        v.assign_add(1.0)
        b = v.read_value()
        return a, b

    types, _, _ = optimized(tf.function(f))
    assert types.count('ReadVariableOp') == 2
    a, b = tf.function(f)()
    assert float(a) == 1.0 and float(b) == 2.0


# ---- elementwise fusion ----

def chain(x, n=100):
    for i in range(n):
        op = i % 4
        if op == 0:
            x = x * 0.99
        elif op == 1:
            x = x + 0.01
        elif op == 2:
            x = tf.tanh(x)
        else:
            x = tf.maximum(x, -0.5)
    return x


def test_fusion_makes_one_node_of_a_chain():
    x = tf.constant(np.random.RandomState(0).uniform(-2, 2, 1000).astype(np.float32))
    types, og, fetches = optimized(tf.function(chain), x)
    assert types.count('_FusedElementwise') == 1
    assert not {'Mul', 'AddV2', 'Tanh', 'Maximum'} & set(types)
    fused = [n for n in og.nodes() if n.type == '_FusedElementwise'][0]
    assert len(fused.attrs()['ops']) == 100
    check_equal_everywhere(chain, x)
    set_options({'remapping': False})
    types, _, _ = optimized(tf.function(chain), x)
    assert '_FusedElementwise' not in types and types.count('Tanh') == 25


@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int32, np.int64])
def test_fusion_dtypes(dtype):
    def f(x, y):
        a = x * y - x
        b = tf.abs(a) + y
        return tf.maximum(b, a) * 3, a

    rs = np.random.RandomState(1)
    x = tf.constant(rs.uniform(-50, 50, [7, 130]).astype(dtype))
    y = tf.constant(rs.uniform(-50, 50, [7, 130]).astype(dtype))
    types, _, _ = optimized(tf.function(f), x, y)
    assert types.count('_FusedElementwise') == 1
    check_equal_everywhere(f, x, y)


def test_fused_intermediates_used_elsewhere():
    def f(x):
        a = tf.exp(x)
        s = tf.reduce_sum(a)  # not elementwise: reads the chain's intermediate
        b = tf.sigmoid(a * x)
        return b - s, a

    x = tf.constant(np.linspace(-3, 3, 600).reshape(20, 30).astype(np.float64))
    types, _, fetches = optimized(tf.function(f), x)
    assert 'Sum' in types and 'Exp' not in types
    check_equal_everywhere(f, x)


def test_side_chains_join_the_chain():
    def f(x):  # tanh(x) and square(x) start on the input, beside the chain: one fused node
        y = tf.exp(-tf.abs(x))
        y = tf.sqrt(y + 1.0) * 0.5 - tf.tanh(x)
        y = tf.maximum(y, 0.1) / (tf.square(x) + 1.0)
        return tf.sigmoid(y)

    x = tf.constant(np.random.RandomState(3).standard_normal(5000).astype(np.float32))
    types, og, _ = optimized(tf.function(f), x)
    assert types.count('_FusedElementwise') == 1
    assert not {'Tanh', 'Square', 'Exp', 'Sigmoid'} & set(types)
    fused = [n for n in og.nodes() if n.type == '_FusedElementwise'][0]
    assert len(fused.attrs()['ops']) == 13
    check_equal_everywhere(f, x)


def test_side_node_that_would_close_a_cycle_stays_out():
    def f(x):
        a = tf.exp(x)
        s = tf.reduce_sum(a)  # depends on the chain: tanh(x) * s cannot join it
        return tf.tanh(x) * s, a + 1.0

    x = tf.constant(np.linspace(-2, 2, 300).astype(np.float32))
    types, _, _ = optimized(tf.function(f), x)
    assert 'Sum' in types and types.count('Mul') == 1
    check_equal_everywhere(f, x)


def test_matmul_bias_relu():
    rs = np.random.RandomState(2)
    w = tf.Variable(rs.randn(16, 8).astype(np.float32))
    b = tf.Variable(rs.randn(8).astype(np.float32))

    def f(x):
        return tf.nn.relu(tf.matmul(x, w) + b) * 2.0 - 1.0

    x = tf.constant(rs.randn(4, 16).astype(np.float32))
    types, _, _ = optimized(tf.function(f), x)
    assert '_FusedMatMul' in types and 'MatMul' not in types
    check_equal_everywhere(f, x)


def test_variables_and_stateful_ops_in_fused_graph():
    def make_step(v):
        def step(x):
            y = tf.tanh(x * 0.5 + v) - 1.0
            v.assign_add(y)
            return y * 2.0 + 1.0
        return step

    init = np.arange(6, dtype=np.float32)
    v_fn, v_plain, v_eager = tf.Variable(init), tf.Variable(init), tf.Variable(init)
    f = tf.function(make_step(v_fn))
    x = tf.constant(np.linspace(0, 1, 6, dtype=np.float32))
    types, _, _ = optimized(f, x)
    assert types.count('AssignAddVariableOp') == 1 and types.count('ReadVariableOp') == 1
    assert '_FusedElementwise' in types
    set_options(ALL_OFF)
    plain = tf.function(make_step(v_plain))
    plain.get_concrete_function(x)  # traced (plan built) with every pass off
    set_options({})
    eager = make_step(v_eager)
    for _ in range(3):
        e = eager(x)
        assert_same(f(x), e)
        assert_same(plain(x), e)
    assert_same(v_fn.numpy(), v_eager.numpy())
    assert_same(v_plain.numpy(), v_eager.numpy())


def test_scalar_functions_fuse():
    def f(a, b):
        return tf.sqrt(tf.abs(a * b + 1.0)) - a / b

    check_equal_everywhere(f, tf.constant(3.0), tf.constant(0.7))


UNARY_F = [tf.negative, tf.abs, tf.exp, tf.tanh, tf.sigmoid, tf.sin, tf.cos, tf.square, tf.nn.relu, tf.nn.relu6,
           tf.nn.elu, tf.math.softplus, tf.floor, tf.math.ceil, tf.round, tf.math.expm1, tf.sign]
BINARY_F = [tf.add, tf.subtract, tf.multiply, tf.math.truediv, tf.maximum, tf.minimum, tf.math.squared_difference]
UNARY_I = [tf.negative, tf.abs, tf.square, tf.nn.relu, tf.sign]
BINARY_I = [tf.add, tf.subtract, tf.multiply, tf.maximum, tf.minimum]


def random_chain(seed, dtype, n_ops):
    rng = random.Random(seed)
    ints = np.issubdtype(dtype, np.integer)
    unary, binary = (UNARY_I, BINARY_I) if ints else (UNARY_F, BINARY_F)
    plan = []
    for i in range(n_ops):
        if rng.random() < 0.5:
            plan.append((rng.choice(unary), rng.randrange(i + 2), None))
        else:
            other = rng.randrange(i + 2) if rng.random() < 0.8 else ('scalar', rng.choice([2, 3, -1]))
            plan.append((rng.choice(binary), rng.randrange(i + 2), other))

    def f(x, y):
        vals = [x, y]
        for fn, a, b in plan:
            if b is None:
                vals.append(fn(vals[a]))
            elif isinstance(b, tuple):
                vals.append(fn(vals[a], tf.constant(b[1], dtype=dtype)))
            else:
                vals.append(fn(vals[a], vals[b]))
        return vals[-1], vals[len(vals) // 2]

    return f


@pytest.mark.parametrize('seed', range(12))
def test_random_chains_fused_equals_unfused(seed):
    dtype = [np.float32, np.float64, np.int32][seed % 3]
    n = [1, 5, 512, 700, 2000][seed % 5]
    rs = np.random.RandomState(seed)
    if dtype == np.int32:
        x, y = rs.randint(-9, 9, n).astype(dtype), rs.randint(-9, 9, n).astype(dtype)
    else:
        x, y = rs.uniform(-2, 2, n).astype(dtype), rs.uniform(-2, 2, n).astype(dtype)
    f = random_chain(seed, dtype, 30)
    x, y = tf.constant(x), tf.constant(y)
    types, _, _ = optimized(tf.function(f), x, y)
    assert '_FusedElementwise' in types
    check_equal_everywhere(f, x, y)


def test_memory_planning_switch_keeps_results():
    """scoped_allocator_optimization=False turns off buffer reuse; results are identical."""
    def f(x):
        y = x * 2.0
        z = tf.nn.relu(y - 1.0)
        w = tf.matmul(z, z)
        return w + y, tf.reduce_sum(w)

    x = tf.constant(np.random.default_rng(3).standard_normal((64, 64)).astype(np.float32))
    with_reuse = [t.numpy() for t in tf.function(f)(x)]
    tf.config.optimizer.set_experimental_options({'scoped_allocator_optimization': False})
    assert _core.get_optimizer_options()['memory_planning'] is False
    without = [t.numpy() for t in tf.function(f)(x)]
    for a, b in zip(with_reuse, without):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_forwarded_outputs_match_fresh_outputs(dtype):
    # Inside plans an elementwise op may write into the input it consumes (memory planning);
    # ops with a fixup pass over their input (Softplus, Elu, Selu, Relu6, Round, Sign, ...) must
    # still see it. Compared with memory planning off (fresh outputs), bitwise.
    ops = [tf.nn.softplus, tf.nn.elu, tf.nn.selu, tf.nn.relu6, tf.math.round, tf.math.sign, tf.math.expm1,
           tf.math.tanh, tf.math.sigmoid, tf.math.exp, tf.math.floor, tf.math.abs, tf.math.negative]

    def chain(x):
        for op in ops:
            x = op(x) * 3.0 - 1.0
        return x
    x = tf.constant(np.random.default_rng(0).uniform(-100, 100, 5000).astype(dtype))
    fresh = run_with({"scoped_allocator_optimization": False, "remapping": False}, chain, x)
    forwarded = run_with({"remapping": False}, chain, x)
    assert_same(forwarded, fresh)
    assert_same(forwarded, chain(x))  # and eager


_EDGES = [0.0, -0.0, np.nan, np.inf, -np.inf, 1e-40, -1e-40, 5e-324, 86.0, 88.5, -88.5, 89.0, -104.0, 708.0,
          710.0, -746.0, 1e30, -1e30, 3.4e38, 1.5, -2.5]


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('name', sorted({op for op, arity, t, pred in _core.scalar_loop_ops()
                                         if arity == 1 and not pred and t == tf.float32.as_datatype_enum}))
def test_fused_unary_ops_at_the_edges_of_their_range(name, dtype):
    """Blocks with NaN, inf, zeros, denormals and overflowing inputs (the fixup path) and blocks with
    none (the scan finds nothing): fused == unfused == eager, bitwise."""
    from eagerflow.ops._execute import execute
    rng = np.random.default_rng(7)
    v = rng.normal(size=3000) * 3
    with np.errstate(over='ignore'):
        v[1500:1500 + len(_EDGES)] = np.array(_EDGES).astype(dtype)
    x = tf.constant(v.astype(dtype))

    def f(x):
        return execute(name, [x * 1.0])[0] * 1.0
    types, _, _ = optimized(tf.function(f), x)
    assert types.count('_FusedElementwise') == 1
    check_equal_everywhere(f, x)
