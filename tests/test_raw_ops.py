"""tf.raw_ops is made from the op registry: every public op is there, callable with TF's keyword
names, and gives what the op gives through the dispatch path (run on each op's table sample)."""
import inspect

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core, raw_ops
from eagerflow.ops._execute import execute
from op_samples import SAMPLES

PUBLIC = sorted(op.name for op in _core.list_ops() if not op.name.startswith("_"))
OPS = {op.name: op for op in _core.list_ops()}


def test_every_public_op_is_a_raw_op():
    assert sorted(dir(tf.raw_ops)) == PUBLIC
    for name in PUBLIC:
        assert callable(getattr(tf.raw_ops, name)), name
    with pytest.raises(AttributeError):
        tf.raw_ops._FusedElementwise  # noqa: B018 - internal ops stay internal


def _kwargs(name, call):
    """A sample call as raw_ops keyword arguments: inputs by position (a list input regrouped),
    attrs by TF's API names; attrs TF infers are left out."""
    op = OPS[name]
    params = list(inspect.signature(getattr(tf.raw_ops, name)).parameters)
    inputs = list(call.inputs)
    n_list = len(inputs) - sum(1 for i in op.inputs if not i.endswith("*"))
    kwargs, pos = {}, 0
    for key, n in zip(params, op.inputs):
        take = n_list if n.endswith("*") else 1
        kwargs[key] = inputs[pos:pos + take] if n.endswith("*") else inputs[pos]
        pos += take
    for a, v in (call.attrs or {}).items():
        key = raw_ops._API_NAMES.get((name, a), a)
        if key in params:
            kwargs[key] = v
    return kwargs


def _values(out):
    if isinstance(out, (list, tuple)):
        return [_values(o) for o in out]
    return out.numpy() if isinstance(out, tf.Tensor) and out.dtype not in (tf.resource, tf.variant) else None


@pytest.mark.parametrize("name", [n for n in PUBLIC if n in SAMPLES and not OPS[n].stateful])
def test_raw_op_gives_what_the_op_gives(name):
    for call in SAMPLES[name].calls:
        try:
            expected = execute(name, [x if isinstance(x, tf.Tensor) else tf.constant(x) for x in call.inputs],
                               call.attrs)
        except tf.errors.OpError:
            continue  # samples that raise are checked by the op table
        got = getattr(tf.raw_ops, name)(**_kwargs(name, call))
        got = got if isinstance(got, list) else [] if got is None else [got]
        assert len(got) == len(expected), name
        for g, x in zip(got, expected):
            gv, xv = _values(g), _values(x)
            if gv is not None:
                np.testing.assert_array_equal(gv, xv, err_msg=name)


def test_keyword_only_and_tf_errors():
    assert tf.raw_ops.AddV2(x=1.0, y=2.0).numpy() == 3.0
    with pytest.raises(TypeError, match=r"add_v2 only takes keyword args \(possible keys: \['x', 'y', 'name'\]\)"):
        tf.raw_ops.AddV2(1.0, 2.0)
    with pytest.raises(TypeError, match=r"add_v2\(\) missing 1 required positional argument: 'y'"):
        tf.raw_ops.AddV2(x=1.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'T'"):
        tf.raw_ops.AddV2(x=1.0, y=2.0, T=tf.float32)
    assert tf.raw_ops.Sum(input=[1, 2, 3], axis=0, keep_dims=False).numpy() == 6
    assert tf.raw_ops.Cast(x=[1, 2], DstT=tf.float32).dtype == tf.float32
    assert tf.raw_ops.ConcatV2(values=[[1], [2]], axis=0).numpy().tolist() == [1, 2]
    parts = tf.raw_ops.Split(axis=0, value=[1, 2, 3, 4], num_split=2)
    assert isinstance(parts, list) and [p.numpy().tolist() for p in parts] == [[1, 2], [3, 4]]
    assert tf.raw_ops.AddV2.__name__ == "add_v2" and tf.raw_ops.BatchMatMulV2.__name__ == "batch_mat_mul_v2"


def test_raw_ops_build_graph_nodes_in_a_function():
    @tf.function
    def f(x):
        return tf.raw_ops.Mul(x=x, y=2.0)

    assert f(tf.constant(3.0)).numpy() == 6.0
    assert "Mul" in [op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]
