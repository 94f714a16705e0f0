"""tf.device scopes (nesting, soft placement without a GPU, bad specs) and tf.config listing
and threading settings."""
import pytest

import eagerflow as tf
from eagerflow import _core

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
HAS_GPU = bool(_core.list_physical_devices("GPU"))


def test_tensors_report_cpu_by_default():
    assert (tf.constant(1.0) + 1).device == CPU0


@pytest.mark.parametrize("spec", ["/cpu:0", "/CPU:0", "CPU", "cpu:0", "/device:CPU:0", CPU0,
                                  "/job:localhost/device:CPU:0"])
def test_cpu_scopes(spec):
    with tf.device(spec):
        x = tf.constant(1.0) + 1
        assert x.device == CPU0
        assert x.numpy() == 2.0
    assert _core.current_device() == CPU0


@pytest.mark.skipif(HAS_GPU, reason="soft placement to the CPU is only observable without a GPU")
def test_gpu_scope_without_gpu_falls_back_to_cpu():
    with tf.device("/gpu:0"):
        x = tf.constant([1.0, 2.0]) * 2
        assert x.device == CPU0 and x.numpy().tolist() == [2.0, 4.0]
        v = tf.Variable(1.0)
    assert v.device == CPU0
    with tf.device("/GPU:3"):
        assert (tf.constant(1) + 1).numpy() == 2


@pytest.mark.skipif(not HAS_GPU, reason="needs a GPU")
def test_gpu_scope_with_gpu():
    with tf.device("/gpu:0"):
        assert _core.current_device().endswith("GPU:0")
        assert (tf.constant([1.0, 2.0]) * 2).numpy().tolist() == [2.0, 4.0]


def test_scopes_nest_and_restore():
    outer = _core.current_device()
    with tf.device("/cpu:0"):
        with tf.device("/gpu:0"):
            with tf.device("/job:localhost"):  # names no device: keeps the enclosing one
                inner = _core.current_device()
            assert _core.current_device() == inner
        assert _core.current_device() == CPU0
    assert _core.current_device() == outer


def test_scope_restores_after_exception():
    before = _core.current_device()
    with pytest.raises(ZeroDivisionError):
        with tf.device("/gpu:0"):
            1 / 0
    assert _core.current_device() == before


def test_none_and_empty_reset_to_default():
    with tf.device("/cpu:0"):
        with tf.device(None):
            assert _core.current_device() == CPU0
        with tf.device(""):
            assert _core.current_device() == CPU0


def test_bad_specs():
    scope = tf.device("/foo:0")  # like TF, the spec is parsed on entry
    with pytest.raises(ValueError, match=r"Unknown attribute 'foo' is encountered while parsing the device spec: "
                                         r"'/foo:0'."):
        with scope:
            pass
    with pytest.raises(RuntimeError, match="tf.device does not support functions."):
        tf.device(lambda op: "/cpu:0")


def test_list_physical_devices():
    cpus = tf.config.list_physical_devices("CPU")
    assert cpus == [tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")]
    assert repr(cpus[0]) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert cpus[0].name == "/physical_device:CPU:0" and cpus[0].device_type == "CPU"
    gpus = tf.config.list_physical_devices("GPU")
    assert len(gpus) == len(_core.list_physical_devices("GPU"))
    assert all(g.device_type == "GPU" and g.name.startswith("/physical_device:GPU:") for g in gpus)
    assert tf.config.list_physical_devices() == cpus + gpus
    assert tf.config.list_physical_devices("cpu") == []  # case-sensitive, as in TF
    assert tf.config.list_physical_devices("XPU") == []
    assert tf.config.experimental.list_physical_devices("CPU") == cpus


def test_list_logical_devices():
    assert tf.config.list_logical_devices("CPU") == [tf.config.LogicalDevice(name="/device:CPU:0", device_type="CPU")]
    assert repr(tf.config.list_logical_devices()[0]) == "LogicalDevice(name='/device:CPU:0', device_type='CPU')"
    assert tf.config.experimental.list_logical_devices() == tf.config.list_logical_devices()
    assert tf.config.get_visible_devices("CPU") == tf.config.list_physical_devices("CPU")


def test_threading():
    th = tf.config.threading
    assert th.get_intra_op_parallelism_threads() == 0 and th.get_inter_op_parallelism_threads() == 0
    default = _core.num_threads()
    try:
        th.set_intra_op_parallelism_threads(1)
        assert th.get_intra_op_parallelism_threads() == 1 and _core.num_threads() == 1
        assert tf.random.uniform([100000]).shape == (100000,)  # kernels still run on one thread
        th.set_inter_op_parallelism_threads(2)
        assert th.get_inter_op_parallelism_threads() == 2
    finally:
        th.set_intra_op_parallelism_threads(0)
        th.set_inter_op_parallelism_threads(0)
    assert _core.num_threads() == default
