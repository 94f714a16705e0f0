"""The op registry as the single source of truth: every op is complete, and every op's TF type
signature keeps dtypes its kernels were not written for (handles, strings) away from them."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import execute

OPS = {op.name: op for op in _core.list_ops()}
TF_CLASSES = (tf.errors.OpError, TypeError, ValueError)


def test_every_op_is_complete():
    for name, op in OPS.items():
        assert op.has_infer and op.has_cpu_kernel, name
        assert op.has_signature, f"{name} declares no type signature"
        assert op.signature_error == "", f"{name}: {op.signature_error}"
        assert len(op.input_types) == len(op.inputs), name


def _handles():
    v = tf.Variable(1.0)
    ta = tf.TensorArray(tf.float32, size=2)
    return {"resource": v.handle, "variant": ta.flow, "string": tf.constant(["a", "b"])}


def _arity(op):
    return [x.rstrip("*") for x in op.inputs]


@pytest.mark.parametrize("kind", ["resource", "variant", "string"])
def test_handles_and_strings_reach_no_kernel_unchecked(kind):
    """Each op with a handle or string in each input position returns or raises TF's classes."""
    value = _handles()[kind]
    filler = tf.constant(1.0)
    for name, op in OPS.items():
        for pos in range(len(op.inputs)):
            inputs = [filler] * len(op.inputs)
            inputs[pos] = value
            for graph in (False, True):
                try:
                    if graph:
                        with tf.Graph().as_default():
                            execute(name, inputs)
                    else:
                        execute(name, inputs)
                except TF_CLASSES:
                    pass


def test_wrong_arity_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2 expects 2 inputs, got 1"):
        execute("AddV2", [tf.constant(1.0)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="ConcatV2 expects at least 1 inputs, got 0"):
        execute("ConcatV2", [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape expects 1 inputs, got 3"):
        execute("Shape", [tf.constant(1.0)] * 3)


def test_signature_messages_match_tf():
    # Not in TF's list: InvalidArgumentError with TF's list of allowed values.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of resource is not in the list of allowed values: bfloat16, half"):
        tf.abs(tf.Variable(1.0).handle)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tidx' of float is not in the list"):
        execute("Sum", [tf.constant([1.0]), tf.constant(0.0)], {"keep_dims": False})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of int8 is not in the list"):
        execute("RandomStandardNormal", [tf.constant([2])], {"dtype": tf.int8})
    # Inputs typed by one attr must agree; fixed-type inputs must have their dtype.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute Pack as input #1\(zero-based\) was expected to be a int32 tensor"):
        execute("Pack", [tf.constant(1), tf.constant(1.0)])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute LogicalAnd as input #0\(zero-based\) was expected to be a bool"):
        execute("LogicalAnd", [tf.constant(1.0), tf.constant(True)])
    # Allowed by TF's op but without a CPU kernel: NotFoundError, as TF raises it.
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node FloorDiv\}\}"):
        tf.math.floordiv(tf.constant([1 + 1j]), tf.constant([1 + 1j]))


def test_signature_messages_in_graphs_match_tf():
    @tf.function
    def f(op, inputs, attrs=None):
        return execute(op, [tf.constant(x) for x in inputs], attrs)

    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType string not in list of allowed"):
        f("Abs", [["a"]])
    with pytest.raises(TypeError, match="Value passed to parameter 'reduction_indices' has DataType float32"):
        f("Sum", [[1.0], 0.0])
    with pytest.raises(TypeError, match="Value passed to parameter 'multiples' has DataType float32 not in list of "
                                        "allowed values: int32, int64"):
        f("Tile", [[1.0], [1.0]])
    with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32 that does not match type int32"):
        f("AddV2", [1, 1.0])
    with pytest.raises(TypeError, match=r"Tensors in list passed to 'values' of 'Pack' Op have types \[int32, "
                                        r"float32\] that don't all match."):
        f("Pack", [1, 1.0])


@pytest.mark.parametrize("target", [tf.resource, tf.variant, "resource"])
def test_cast_to_handles_is_unimplemented(target):
    for x in (tf.constant([1]), tf.zeros([0]), tf.constant(1.5)):
        with pytest.raises(tf.errors.UnimplementedError, match="to (resource|variant) is not supported"):
            tf.cast(x, target)
    with pytest.raises(tf.errors.UnimplementedError, match="Cast int32 to resource is not supported"):
        tf.dtypes.saturate_cast(tf.constant([1]), tf.resource)
    with pytest.raises(tf.errors.UnimplementedError):
        tf.function(lambda: tf.cast(tf.constant([1]), target))()


def test_cast_from_handles_is_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError, match="Cast resource to float is not supported"):
        tf.cast(tf.Variable(1.0).handle, tf.float32)
    np.testing.assert_equal(tf.cast(tf.constant([1, 2]), tf.float32).numpy(), [1.0, 2.0])
