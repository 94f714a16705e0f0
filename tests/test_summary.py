"""tf.summary: event files in TF's format (records compared with the bytes TF 2.21 + TensorBoard 2.21
write for the same calls), TensorBoard's histogram bucketing, writers, steps, record_if, tf.function."""
import os
import re
import struct

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.framework.proto_wire import fields
from eagerflow.summary._ops import histogram_buckets

# What TF wrote for scalar('loss', 0.5, step=3), histogram('h', [1, 2, 2, 5], step=3, buckets=3) and
# text('t', 'hello', step=4): each Event after its wall_time field.
TF_RECORDS = [
    "10032a210a1f0a046c6f7373420a0801120022040000003f4a0b0a090a077363616c617273",
    "10032a6d0a6b0a016842560802120812020803120208032248000000000000f03faaaaaaaaaaaa02400000000000000840aaaaaaaaaaaa"
    "02405555555555550d4000000000000000005555555555550d400000000000001440000000000000f03f4a0e0a0c0a0a686973746f67"
    "72616d73",
    "10042a1c0a1a0a0174420b08071200420568656c6c6f4a080a060a0474657874",
]
TF_HEADER = "1a0d627261696e2e4576656e743a3252240a2274656e736f72666c6f772e636f72652e7574696c2e6576656e74735f777269746572"


def _step(record):
    return dict(fields(record)).get(2, 0)


def _scalar(record):
    """Event.summary.value[0].tensor.tensor_content as float32 (a byte search could hit the wall time)."""
    message = record
    for field in (5, 1, 8, 4):
        message = dict(fields(message))[field]
    return struct.unpack("<f", message)[0]


def _records(logdir):
    files = os.listdir(logdir)
    assert len(files) == 1
    return _core.read_records(os.path.join(logdir, files[0]))


def test_event_records_match_tensorflows(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert tf.summary.scalar("loss", 0.5, step=3).numpy()
        tf.summary.histogram("h", [1., 2., 2., 5.], step=3, buckets=3)
        tf.summary.text("t", "hello", step=4)
    writer.close()
    name = os.listdir(tmp_path)[0]
    assert re.fullmatch(rf"events\.out\.tfevents\.\d+\..+\.{os.getpid()}\.\d+\.v2", name), name
    records = _records(tmp_path)
    assert records[0][0] == 0x09 and records[0][9:].hex() == TF_HEADER
    wall_time = struct.unpack("<d", records[0][1:9])[0]
    assert wall_time == int(wall_time)  # the header's time is whole seconds, as TF writes it
    assert [r[9:].hex() for r in records[1:]] == TF_RECORDS


def test_histogram_buckets_follow_tensorboard():
    np.testing.assert_array_equal(histogram_buckets([3., 3.], 2), [[3., 3., 0.], [3., 3., 2.]])
    np.testing.assert_array_equal(histogram_buckets([], 4), np.zeros((4, 3)))
    assert histogram_buckets(np.arange(100.)).shape == (30, 3)
    b = histogram_buckets([0., 1., 9.99, 10.], 5)
    np.testing.assert_array_equal(b[:, 2], [2., 0., 0., 0., 2.])  # the maximum falls in the last bucket
    assert b[-1, 1] == 10. and b[0, 0] == 0.


def test_guide_loop_writes_ten_scalars(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "tb"))
    with writer.as_default():
        for i in range(1000):
            step = i + 1
            loss = 1 - 0.001 * step
            if step % 100 == 0:
                tf.summary.scalar("손실", loss, step=step)
    writer.flush()
    records = _records(tmp_path / "tb")
    assert len(records) == 11
    for k, record in enumerate(records[1:], 1):
        assert "손실".encode() in record and _step(record) == 100 * k
        assert _scalar(record) == pytest.approx(1 - 0.1 * k)


def test_steps_record_if_and_default_writer(tmp_path):
    assert not tf.summary.scalar("x", 1., step=1).numpy()  # no default writer
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set. Please specify one either through the `step` argument"):
            tf.summary.scalar("x", 1.)
        with pytest.raises(ValueError, match=r"Expected scalar shape, saw shape: \(2,\)."):
            tf.summary.scalar("x", [1., 2.], step=1)
        assert tf.summary.experimental.get_step() is None
        tf.summary.experimental.set_step(7)
        assert tf.summary.experimental.get_step() == 7
        assert tf.summary.scalar("stepped", 1.).numpy()
        with tf.summary.record_if(False):
            assert not tf.summary.should_record_summaries().numpy()
            assert not tf.summary.scalar("skipped", 1., step=1).numpy()
        assert tf.summary.should_record_summaries().numpy()
        tf.summary.experimental.set_step(None)
    assert not tf.summary.should_record_summaries().numpy()
    writer.close()
    with pytest.raises(RuntimeError, match="is already closed"):
        with writer.as_default():
            tf.summary.scalar("x", 1., step=1)
    records = _records(tmp_path)
    assert len(records) == 2 and b"stepped" in records[1] and _step(records[1]) == 7
    with tf.summary.create_noop_writer().as_default():
        assert tf.summary.scalar("x", 1., step=1).numpy()


def test_summaries_in_a_function_write_on_every_call(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def step_fn(x, step):
        tf.summary.scalar("doubled", x * 2, step=step)
        tf.summary.histogram("values", tf.fill([4], x), step=step)
        return x + 1

    with writer.as_default():
        for i in range(3):
            step_fn(tf.constant(float(i)), tf.constant(i, tf.int64))
    records = _records(tmp_path)[1:]
    assert len(records) == 6
    scalars = [r for r in records if b"doubled" in r]
    assert [_step(r) for r in scalars] == [0, 1, 2]
    assert [_scalar(r) for r in scalars] == [0., 2., 4.]


def test_image_summary_is_png(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    images = np.zeros((5, 2, 3, 3), np.float32)
    images[:, 0, 0, 0] = 1.
    with writer.as_default():
        tf.summary.image("img", images, step=1, max_outputs=2)
    writer.close()
    record = _records(tmp_path)[1]
    assert record.count(b"\x89PNG\r\n\x1a\n") == 2 and b"images" in record


def test_tensorboard_reads_every_summary_kind(tmp_path):
    event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    from tensorboard.util import tensor_util
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for step in range(3):
            tf.summary.scalar("loss", 1. / (step + 1), step=step)
        tf.summary.histogram("weights", [1., 2., 2., 5.], step=1, buckets=3)
        tf.summary.text("note", "**hello**", step=1)
        tf.summary.image("img", np.ones((1, 4, 5, 3), np.float32), step=1)
        tf.summary.graph(tf.function(lambda x: x * 2.).get_concrete_function(tf.constant(1.)).graph)
    writer.close()
    acc = event_accumulator.EventAccumulator(str(tmp_path), size_guidance={event_accumulator.TENSORS: 0})
    acc.Reload()
    assert sorted(acc.Tags()["tensors"]) == ["img", "loss", "note", "weights"]
    loss = acc.Tensors("loss")
    assert [e.step for e in loss] == [0, 1, 2]
    np.testing.assert_allclose([tensor_util.make_ndarray(e.tensor_proto) for e in loss], [1., .5, 1 / 3], rtol=1e-6)
    assert acc.SummaryMetadata("loss").plugin_data.plugin_name == "scalars"
    np.testing.assert_allclose(tensor_util.make_ndarray(acc.Tensors("weights")[0].tensor_proto)[:, 2], [3., 0., 1.])
    assert tensor_util.make_ndarray(acc.Tensors("note")[0].tensor_proto) == b"**hello**"
    assert acc.Tags()["graph"] and [n.op for n in acc.Graph().node] == ["Placeholder", "Const", "Mul", "Identity"]
    img = tensor_util.make_ndarray(acc.Tensors("img")[0].tensor_proto)
    assert list(img[:2]) == [b"5", b"4"] and img[2].startswith(b"\x89PNG")


def test_graph_summary_writes_a_graph_def(tmp_path):
    @tf.function
    def f(x):
        return tf.nn.relu(tf.matmul(x, x) + 1.)

    graph = f.get_concrete_function(tf.TensorSpec([2, 2], tf.float32)).graph
    writer = tf.summary.create_file_writer(str(tmp_path))
    assert not tf.summary.graph(graph).numpy()  # no default writer
    with writer.as_default():
        assert tf.summary.graph(graph).numpy()
    writer.close()
    event = dict(fields(_records(tmp_path)[1]))
    nodes = [dict(fields(value)) for field, value in fields(event[4]) if field == 1]
    assert [(n[1], n[2]) for n in nodes] == [(b"x", b"Placeholder"), (b"MatMul", b"MatMul"), (b"add/y", b"Const"),
                                             (b"add", b"AddV2"), (b"Relu", b"Relu"), (b"Identity", b"Identity")]
    add = [v for field, v in fields(event[4]) if field == 1][3]
    assert [v for field, v in fields(add) if field == 3] == [b"MatMul", b"add/y"]


def test_trace_export_writes_the_graphs_traced_since_trace_on(tmp_path):
    @tf.function
    def before(x):
        return x + 1.

    @tf.function
    def traced(x):
        return x * 2.

    before(tf.constant(1.))
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    traced(tf.constant(1.))
    before(tf.constant(1.))  # already traced: not collected
    with writer.as_default():
        assert tf.summary.trace_export(name="my_trace", step=3).numpy()
        assert not tf.summary.trace_export(name="again", step=4).numpy()  # trace_export stopped tracing
    writer.close()
    records = _records(tmp_path)[1:]
    assert len(records) == 1 and _step(records[0]) == 3
    event = dict(fields(records[0]))
    value = dict(fields(dict(fields(event[5]))[1]))
    assert value[1] == b"my_trace" and b"graph_run_metadata_graph" in value[9]
    run_metadata = dict(fields(value[8]))[8]  # the string_val of the scalar string tensor
    graphs = [dict(fields(fg))[2] for field, fg in fields(run_metadata) if field == 4]
    assert len(graphs) == 1
    assert [dict(fields(n))[2] for f, n in fields(graphs[0]) if f == 1] == [b"Placeholder", b"Const", b"Mul",
                                                                           b"Identity"]
