"""tf.train.Checkpoint, CheckpointManager and the checkpoint readers: TF's file format and keys, object
matching by graph path, deferred restoration, atomic writes and corrupt-file errors."""
import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import eagerflow as tf


def _sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class _Nested(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([1., 2.])
        self.layers_ = [tf.Variable(3), {"a.b": tf.Variable(4.), "c/d": tf.Variable(5.)}]
        self.sub = tf.Module()
        self.sub.v = tf.Variable(6, dtype=tf.int64)
        self.t = (tf.Variable(True), tf.Variable("str"))


def test_files_are_byte_identical_to_tensorflows(tmp_path):
    # TF 2.21 wrote these for the same objects (Checkpoint.save of one variable; Checkpoint.write of a
    # module with nested lists, dicts, tuples, escaped names, int/bool/string variables).
    x = tf.Variable(10.)
    ckpt = tf.train.Checkpoint(x=x)
    x.assign(2.)
    prefix = ckpt.save(str(tmp_path / "a" / "ck"))
    assert prefix == str(tmp_path / "a" / "ck-1")
    assert _sha(prefix + ".index") == "68d600c0c7deac9d80f67bcb646900fe65c8b32b1166f0cec7e5441752910d6c"
    assert _sha(prefix + ".data-00000-of-00001") == "82b45eb085c47f89bfdc27925c7d7629977a9a38b69f6cd78221c7208674e521"
    with open(tmp_path / "a" / "checkpoint") as f:
        assert f.read() == 'model_checkpoint_path: "ck-1"\nall_model_checkpoint_paths: "ck-1"\n'

    prefix = tf.train.Checkpoint(m=_Nested(), extra=[tf.Variable(7.)]).write(str(tmp_path / "m" / "ck"))
    assert _sha(prefix + ".index") == "95020d087148455b113a6ffed09044f2d8850f9bf2be22ad032b7a2656de1c7a"
    assert _sha(prefix + ".data-00000-of-00001") == "b6467b810d3218c360412f65e7d09efd0de35a5497d927d76d88b7e7ffd569b2"
    assert [k for k, _ in tf.train.list_variables(prefix)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "extra/0/.ATTRIBUTES/VARIABLE_VALUE", "m/layers_/0/.ATTRIBUTES/VARIABLE_VALUE",
        "m/layers_/1/a..b/.ATTRIBUTES/VARIABLE_VALUE", "m/layers_/1/c.Sd/.ATTRIBUTES/VARIABLE_VALUE",
        "m/sub/v/.ATTRIBUTES/VARIABLE_VALUE", "m/t/0/.ATTRIBUTES/VARIABLE_VALUE", "m/t/1/.ATTRIBUTES/VARIABLE_VALUE",
        "m/w/.ATTRIBUTES/VARIABLE_VALUE"]
    assert not [f for f in os.listdir(tmp_path / "m") if "tempstate" in f]


def _rare_variables():
    return dict(u16=tf.Variable(tf.constant([1, 65535], tf.uint16)),
                u32=tf.Variable(tf.constant([[7], [4294967295]], tf.uint32)),
                u64=tf.Variable(tf.constant(2 ** 64 - 2, tf.uint64)),
                bf=tf.Variable(tf.constant([1.5, -0.1, 3e38, float("inf")], tf.bfloat16)),
                bf0=tf.Variable(tf.constant(0.1, tf.bfloat16)),
                c128=tf.Variable(tf.constant([1 + 2j, -3.5j], tf.complex128)))


def test_rare_dtypes_are_stored_as_tensorflow_stores_them(tmp_path):
    # TF 2.21 wrote these for the same variables: bfloat16 as its 16 bits, the others as their bytes.
    prefix = tf.train.Checkpoint(**_rare_variables()).write(str(tmp_path / "rare"))
    assert _sha(prefix + ".index") == "92112ed50847f586f1b4a38958295c97bad5edbb1730d9b88994b8c77eafddc7"
    assert _sha(prefix + ".data-00000-of-00001") == "bc7e4b1b70a78a17b7c387950ce47eedc7987decc6c40c5691314d57fd79e565"
    reader = tf.train.load_checkpoint(prefix)
    dtypes = reader.get_variable_to_dtype_map()
    assert [dtypes[f"{k}/.ATTRIBUTES/VARIABLE_VALUE"] for k in ("u16", "u32", "u64", "bf", "bf0", "c128")] == [
        tf.uint16, tf.uint32, tf.uint64, tf.bfloat16, tf.bfloat16, tf.complex128]
    bf = reader.get_tensor("bf/.ATTRIBUTES/VARIABLE_VALUE")
    assert bf.dtype == tf.bfloat16.as_numpy_dtype  # ml_dtypes' bfloat16, else float32
    np.testing.assert_array_equal(bf.astype(np.float32), [1.5, -0.10009765625, 3.00405527047391e38, np.inf])
    assert float(reader.get_tensor("bf0/.ATTRIBUTES/VARIABLE_VALUE")) == 0.10009765625
    assert reader.get_tensor("u64/.ATTRIBUTES/VARIABLE_VALUE") == 2 ** 64 - 2

    fresh = {k: tf.Variable(tf.zeros_like(v)) for k, v in _rare_variables().items()}
    tf.train.Checkpoint(**fresh).restore(prefix).assert_consumed()
    for k, v in _rare_variables().items():
        assert fresh[k].dtype == v.dtype
        np.testing.assert_array_equal(tf.cast(fresh[k], tf.complex128).numpy(), tf.cast(v, tf.complex128).numpy())


def test_restore_module_values_by_path(tmp_path):
    saved = _Nested()
    prefix = tf.train.Checkpoint(m=saved).write(str(tmp_path / "ck"))
    fresh = _Nested()
    fresh.w.assign([0., 0.])
    fresh.layers_[1]["c/d"].assign(-1.)
    fresh.sub.v.assign(0)
    fresh.t[1].assign("other")
    status = tf.train.Checkpoint(m=fresh).restore(prefix)
    status.assert_consumed().assert_existing_objects_matched().assert_nontrivial_match()
    np.testing.assert_array_equal(fresh.w.numpy(), [1., 2.])
    assert fresh.layers_[1]["c/d"].numpy() == 5.
    assert fresh.sub.v.numpy() == 6 and fresh.sub.v.dtype == tf.int64
    assert fresh.t[1].numpy() == b"str"
    assert status.expect_partial() is status


def test_reader_api(tmp_path):
    prefix = tf.train.Checkpoint(m=_Nested()).write(str(tmp_path / "ck"))
    reader = tf.train.load_checkpoint(prefix)
    w = reader.get_tensor("m/w/.ATTRIBUTES/VARIABLE_VALUE")
    np.testing.assert_array_equal(w, [1., 2.])
    assert w.dtype == np.float32
    scalar = reader.get_tensor("m/sub/v/.ATTRIBUTES/VARIABLE_VALUE")
    assert type(scalar) is np.int64 and scalar == 6
    assert reader.get_tensor("m/t/1/.ATTRIBUTES/VARIABLE_VALUE") == b"str"
    assert reader.get_variable_to_shape_map()["m/w/.ATTRIBUTES/VARIABLE_VALUE"] == [2]
    assert reader.get_variable_to_dtype_map()["m/t/0/.ATTRIBUTES/VARIABLE_VALUE"] == tf.bool
    assert reader.has_tensor("_CHECKPOINTABLE_OBJECT_GRAPH") and not reader.has_tensor("nope")
    assert tf.train.load_variable(prefix, "m/layers_/0/.ATTRIBUTES/VARIABLE_VALUE:0") == 3
    with pytest.raises(tf.errors.NotFoundError, match="Key zz not found in checkpoint"):
        reader.get_tensor("zz")
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints in given directory"):
        tf.train.load_checkpoint(str(tmp_path))
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for .*nope"):
        tf.train.load_checkpoint(str(tmp_path / "nope"))


def test_save_numbering_state_file_and_latest_checkpoint(tmp_path):
    v = tf.Variable(1.)
    ckpt = tf.train.Checkpoint(v=v)
    d = str(tmp_path / "run")
    assert tf.train.latest_checkpoint(d) is None
    first = ckpt.save(os.path.join(d, "ckpt"))
    v.assign(2.)
    second = ckpt.save(os.path.join(d, "ckpt"))
    assert (first, second) == (os.path.join(d, "ckpt-1"), os.path.join(d, "ckpt-2"))
    assert ckpt.save_counter.numpy() == 2
    assert tf.train.latest_checkpoint(d) == second
    state = tf.train.get_checkpoint_state(d)
    assert state.model_checkpoint_path == second and state.all_model_checkpoint_paths == [second]
    ckpt.restore(first)
    assert v.numpy() == 1. and ckpt.save_counter.numpy() == 1
    assert tf.train.Checkpoint(v=v).restore(None).expect_partial() is not None


def test_keras_keys_match_tensorflow(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    model(tf.ones((1, 2)))
    prefix = tf.train.Checkpoint(model=model).write(str(tmp_path / "ck"))
    # TF 2.21 (tf_keras) lists these for the same model.
    assert [k for k, _ in tf.train.list_variables(prefix)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "model/layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "model/layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "model/layer_with_weights-1/kernel/.ATTRIBUTES/VARIABLE_VALUE"]


def _train_step(model, optimizer, x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


def test_deferred_restoration_of_unbuilt_model_and_optimizer_slots(tmp_path):
    x = tf.constant([[1., 2.]])
    model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        _train_step(model, optimizer, x)
    prefix = tf.train.Checkpoint(model=model, optimizer=optimizer).write(str(tmp_path / "ck"))

    model2 = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    optimizer2 = tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=model2, optimizer=optimizer2).restore(prefix)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()  # weights and slots do not exist yet
    assert optimizer2.iterations.numpy() == 3  # existing state is restored at once
    np.testing.assert_allclose(model2(x).numpy(), model(x).numpy())  # building restores the weights
    _train_step(model, optimizer, x)
    _train_step(model2, optimizer2, x)  # the slots made by the first step get the saved moments
    for a, b in zip(model.variables + optimizer.variables, model2.variables + optimizer2.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    status.assert_consumed()


def test_status_assertions(tmp_path):
    a, b = tf.Variable(1.), tf.Variable(2.)
    prefix = tf.train.Checkpoint(a=a).write(str(tmp_path / "ck"))
    status = tf.train.Checkpoint(a=a, b=b).restore(prefix)
    with pytest.raises(AssertionError, match="Some Python objects were not bound to checkpointed values"):
        status.assert_existing_objects_matched()
    status.assert_nontrivial_match()
    with pytest.raises(AssertionError, match="Nothing except the root object matched"):
        tf.train.Checkpoint(other=b).restore(prefix).assert_nontrivial_match()
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        tf.train.Checkpoint(other=tf.Module()).restore(prefix).assert_consumed()
    with pytest.raises(ValueError, match="Received incompatible tensor with shape"):
        tf.train.Checkpoint(a=tf.Variable([1., 2.])).restore(prefix)


def test_checkpoint_requires_trackables():
    with pytest.raises(ValueError, match="`Checkpoint` was expecting x to be a trackable object"):
        tf.train.Checkpoint(x=5)


def test_checkpoint_manager(tmp_path):
    v = tf.Variable(0)
    ckpt = tf.train.Checkpoint(v=v)
    d = str(tmp_path / "mgr")
    manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=2, checkpoint_name="model")
    assert manager.latest_checkpoint is None and manager.checkpoints == []
    for i in range(4):
        v.assign(i)
        path = manager.save()
    assert path == os.path.join(d, "model-4")
    assert manager.checkpoints == [os.path.join(d, "model-3"), os.path.join(d, "model-4")]
    assert manager.latest_checkpoint == tf.train.latest_checkpoint(d) == path
    assert sorted(os.listdir(d)) == ["checkpoint", "model-3.data-00000-of-00001", "model-3.index",
                                     "model-4.data-00000-of-00001", "model-4.index"]
    assert manager.save(checkpoint_number=10) == os.path.join(d, "model-10")
    again = tf.train.CheckpointManager(ckpt, d, max_to_keep=2, checkpoint_name="model")
    assert again.checkpoints == [os.path.join(d, "model-4"), os.path.join(d, "model-10")]
    v.assign(-1)
    assert again.restore_or_initialize() == os.path.join(d, "model-10")
    assert v.numpy() == 3
    with pytest.raises(ValueError, match="Expected a positive integer or `None` for `max_to_keep`"):
        tf.train.CheckpointManager(ckpt, d, max_to_keep=0)


def test_checkpoint_manager_keeps_one_every_n_hours(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.))
    d = str(tmp_path)
    manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=1, keep_checkpoint_every_n_hours=1e-9)
    for _ in range(3):
        time.sleep(0.01)
        manager.save()
    assert manager.checkpoints == [os.path.join(d, "ckpt-3")]  # older ones are kept on disk, unmanaged
    assert sorted(os.listdir(d)) == ["checkpoint"] + [f"ckpt-{i}.{ext}" for i in (1, 2, 3)
                                                      for ext in ("data-00000-of-00001", "index")]
    state = open(os.path.join(d, "checkpoint")).read().splitlines()
    assert state[:2] == ['model_checkpoint_path: "ckpt-3"', 'all_model_checkpoint_paths: "ckpt-3"']
    assert state[2].startswith("all_model_checkpoint_timestamps: ") and state[3].startswith("last_preserved_timestamp")


def test_corrupt_truncated_and_missing_files(tmp_path):
    v = tf.Variable(np.arange(1000, dtype=np.float32))
    ckpt = tf.train.Checkpoint(v=v)
    prefix = ckpt.write(str(tmp_path / "ck"))
    data = prefix + ".data-00000-of-00001"
    raw = bytearray(open(data, "rb").read())
    raw[100] ^= 1
    open(data, "wb").write(bytes(raw))
    with pytest.raises(tf.errors.DataLossError, match=f"TensorBundle at {prefix} .*Checksum does not match"):
        ckpt.restore(prefix)
    ckpt.write(prefix)
    index = prefix + ".index"
    raw = open(index, "rb").read()
    open(index, "wb").write(raw[:-5])
    with pytest.raises(tf.errors.DataLossError, match=f"{index}.*not an sstable"):
        ckpt.restore(prefix)
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for .*missing.*\n"
                                                      "Please double-check that the path is correct"):
        ckpt.restore(str(tmp_path / "missing"))


_SAVER = textwrap.dedent("""
    import sys
    import numpy as np
    import eagerflow as tf
    v = tf.Variable(np.zeros(4_000_000, np.float32))
    ckpt = tf.train.Checkpoint(v=v)
    for i in range(1, 10_000):
        v.assign(np.full(4_000_000, i, np.float32))
        ckpt.save(sys.argv[1])
        print(i, flush=True)
""")


def test_killed_save_leaves_the_previous_checkpoint_intact(tmp_path):
    prefix = str(tmp_path / "ckpt")
    proc = subprocess.Popen([sys.executable, "-c", _SAVER, prefix], stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(3):  # let a few saves complete, then kill one mid-way
            assert proc.stdout.readline()
        time.sleep(0.01)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    latest = tf.train.latest_checkpoint(str(tmp_path))
    assert latest is not None
    v = tf.Variable(np.zeros(4_000_000, np.float32))
    tf.train.Checkpoint(v=v).restore(latest).assert_consumed()
    n = int(latest.rsplit("-", 1)[1])
    assert (v.numpy() == n).all()
    for name in os.listdir(tmp_path):  # every complete file name is a whole file
        if name.endswith(".index"):
            tf.train.load_checkpoint(str(tmp_path / name[:-6])).get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE")


def test_write_inside_a_function_saves_the_values_of_each_call(tmp_path):
    v = tf.Variable(1.)
    ckpt = tf.train.Checkpoint(v=v)
    prefix = str(tmp_path / "fn" / "ck")

    @tf.function
    def train_and_write():
        v.assign_add(1.)
        return ckpt.write(prefix)

    assert train_and_write().numpy() == prefix.encode()
    assert tf.train.load_variable(prefix, "v/.ATTRIBUTES/VARIABLE_VALUE") == 2.
    train_and_write()
    assert tf.train.load_variable(prefix, "v/.ATTRIBUTES/VARIABLE_VALUE") == 3.

    @tf.function
    def save():
        return ckpt.save(prefix)

    with pytest.raises(NotImplementedError, match=r"Calling tf.train.Checkpoint.save\(\) from a function is not"):
        save()
