"""Checkpoints across eagerflow and a real TensorFlow: each restores what the other wrote.

TensorFlow runs in its own Python (EAGERFLOW_TF_PYTHON, else /tmp/tf/bin/python) in a subprocess; the
tests skip when there is none. Values travel in .npz files.
"""
import os
import subprocess
import textwrap

import numpy as np
import pytest

import eagerflow as tf

TF_PYTHON = os.environ.get("EAGERFLOW_TF_PYTHON") or "/tmp/tf/bin/python"
pytestmark = pytest.mark.skipif(not os.path.exists(TF_PYTHON),
                                reason=f"no TensorFlow Python at {TF_PYTHON} (set EAGERFLOW_TF_PYTHON)")

_PRELUDE = """
import sys
import numpy as np
import tensorflow as tf
def model():
    return tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
"""


def run_tf(script, *args):
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    for key in ("PYTHONPATH", "LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"):  # TF is not the sanitized core
        env.pop(key, None)
    proc = subprocess.run([TF_PYTHON, "-c", _PRELUDE + textwrap.dedent(script), *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _model():
    return tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])


def _step(model, optimizer, x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


class _Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
        self.parts = [tf.Variable(np.int64(7)), {"b": tf.Variable([True, False])}]


def test_tensorflow_restores_eagerflows_checkpoint(tmp_path):
    x = tf.constant([[1., 2.]])
    model = _model()
    optimizer = tf.keras.optimizers.Adam(0.1)
    _step(model, optimizer, x)
    net = _Net()
    prefix = tf.train.Checkpoint(model=model, net=net).save(str(tmp_path / "ckpt"))
    np.savez(tmp_path / "want.npz", *[v.numpy() for v in model.variables])
    out = run_tf("""
        prefix, want = sys.argv[1], np.load(sys.argv[2])
        assert tf.train.latest_checkpoint(sys.argv[3]) == prefix, tf.train.latest_checkpoint(sys.argv[3])
        class Net(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.zeros((2, 3)))
                self.parts = [tf.Variable(np.int64(0)), {"b": tf.Variable([False, True])}]
        m, net = model(), Net()
        m(tf.zeros((1, 2)))
        status = tf.train.Checkpoint(model=m, net=net).restore(prefix)
        status.assert_consumed()
        for i, v in enumerate(m.variables):
            np.testing.assert_array_equal(v.numpy(), want[f"arr_{i}"])
        np.testing.assert_array_equal(net.w.numpy(), np.arange(6).reshape(2, 3))
        assert net.parts[0].numpy() == 7 and net.parts[1]["b"].numpy().tolist() == [True, False]
        print("ok")
    """, prefix, tmp_path / "want.npz", tmp_path)
    assert out.strip() == "ok"


def test_eagerflow_restores_tensorflows_checkpoint(tmp_path):
    run_tf("""
        m, opt = model(), tf.keras.optimizers.Adam(0.1)
        x = tf.constant([[1., 2.]])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(m(x) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
        tf.train.Checkpoint(model=m, optimizer=opt).save(sys.argv[1] + "/ckpt")
        np.savez(sys.argv[1] + "/want.npz", *[v.numpy() for v in m.variables], out=m(x).numpy())
    """, tmp_path)
    want = np.load(tmp_path / "want.npz")
    prefix = tf.train.latest_checkpoint(str(tmp_path))
    assert prefix == str(tmp_path / "ckpt-1")
    built = _model()
    built(tf.zeros((1, 2)))
    tf.train.Checkpoint(model=built).restore(prefix).expect_partial().assert_existing_objects_matched()
    for i, v in enumerate(built.variables):
        np.testing.assert_array_equal(v.numpy(), want[f"arr_{i}"])
    deferred = _model()  # restored before it has weights: assigned when it builds
    tf.train.Checkpoint(model=deferred).restore(prefix).expect_partial()
    np.testing.assert_allclose(deferred(tf.constant([[1., 2.]])).numpy(), want["out"], rtol=1e-6)
    assert tf.train.load_checkpoint(prefix).get_tensor("optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE") == 1


def test_rare_dtypes_restore_across_frameworks(tmp_path):
    # bfloat16, uint16/32/64 and complex128 variables, each way.
    values = dict(bf=[1.5, -0.1, 3e38], u16=[65535, 3], u32=[4294967295], u64=[2 ** 64 - 1, 5], c=[1 + 2j])
    kinds = dict(bf="bfloat16", u16="uint16", u32="uint32", u64="uint64", c="complex128")
    script = """
        import ast
        values, kinds = ast.literal_eval(sys.argv[2]), ast.literal_eval(sys.argv[3])
        def make(scale):
            return {k: tf.Variable(tf.constant(v, getattr(tf, kinds[k])) * scale) for k, v in values.items()}
        if sys.argv[4] == "write":
            tf.train.Checkpoint(**make(1)).write(sys.argv[1])
        else:
            got = make(0)
            tf.train.Checkpoint(**got).restore(sys.argv[1]).expect_partial()  # save_counter: made on restore
            for k, v in got.items():
                want = tf.constant(values[k], getattr(tf, kinds[k]))
                assert (tf.cast(v, tf.complex128).numpy() == tf.cast(want, tf.complex128).numpy()).all(), k
            print("ok")
    """
    run_tf(script, tmp_path / "from_tf", values, kinds, "write")
    got = {k: tf.Variable(tf.zeros([len(v)], getattr(tf, kinds[k]))) for k, v in values.items()}
    tf.train.Checkpoint(**got).restore(str(tmp_path / "from_tf")).assert_consumed()
    for k, v in got.items():
        want = tf.constant(values[k], getattr(tf, kinds[k]))
        np.testing.assert_array_equal(tf.cast(v, tf.complex128).numpy(), tf.cast(want, tf.complex128).numpy())
    mine = {k: tf.Variable(tf.constant(v, getattr(tf, kinds[k]))) for k, v in values.items()}
    tf.train.Checkpoint(**mine).write(str(tmp_path / "from_eagerflow"))
    assert run_tf(script, tmp_path / "from_eagerflow", values, kinds, "read").strip() == "ok"


def test_optimizer_slots_restore_across_frameworks(tmp_path):
    run_tf("""
        m, opt = model(), tf.keras.optimizers.Adam(0.1)
        x = tf.constant([[1., 2.]])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(m(x) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
        tf.train.Checkpoint(model=m, optimizer=opt).write(sys.argv[1] + "/ckpt")
    """, tmp_path)
    model, optimizer = _model(), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(str(tmp_path / "ckpt"))
    _step(model, optimizer, tf.constant([[1., 2.]]))
    status.assert_consumed()


def test_tensorflows_summary_iterator_reads_eagerflows_events(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for step in (100, 200):
            tf.summary.scalar("손실", 1 - 0.001 * step, step=step)
        tf.summary.histogram("h", [1., 2., 2., 5.], step=3, buckets=3)
        tf.summary.text("t", ["a", "b"], step=4)
        tf.summary.image("img", np.zeros((1, 2, 3, 1), np.uint8), step=5)
        tf.summary.graph(tf.function(lambda x: x * 2.).get_concrete_function(tf.constant(1.)).graph)
    writer.close()
    path = os.path.join(str(tmp_path), os.listdir(tmp_path)[0])
    out = run_tf("""
        for e in tf.compat.v1.train.summary_iterator(sys.argv[1]):
            if e.file_version:
                print(e.file_version)
            if e.graph_def:
                print([(n.name, n.op, list(n.input)) for n in tf.compat.v1.GraphDef.FromString(e.graph_def).node])
            for v in e.summary.value:
                t = tf.make_ndarray(v.tensor)
                t = (list(t[:2]) + [tf.io.decode_png(t[2]).shape.as_list()]) if v.tag == "img" else t.tolist()
                print(e.step, v.tag, v.metadata.plugin_data.plugin_name, t)
    """, path)
    assert out.splitlines() == [
        "brain.Event:2",
        "100 손실 scalars 0.8999999761581421",
        "200 손실 scalars 0.800000011920929",
        "3 h histograms [[1.0, 2.333333333333333, 3.0], [2.333333333333333, 3.6666666666666665, 0.0], "
        "[3.6666666666666665, 5.0, 1.0]]",
        "4 t text [b'a', b'b']",
        "5 img images [b'3', b'2', [2, 3, 1]]",
        "[('x', 'Placeholder', []), ('mul/y', 'Const', []), ('mul', 'Mul', ['x', 'mul/y']), "
        "('Identity', 'Identity', ['mul'])]",
    ]
