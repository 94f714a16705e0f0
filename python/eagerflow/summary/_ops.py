"""tf.summary.scalar / histogram / text / image / write: summary values with the plugin metadata
TensorBoard's dashboards expect (TensorBoard's summary_v2 layout: scalars as float32 tensors,
histograms as [k, 3] float64 (left edge, right edge, count), text as string tensors, images as
[width, height, png...]).

Eagerly a call writes at once. While a tf.function traces, it adds a stateful py_function op that
writes on every call of the function, with the step and data read when the op runs.
"""
import struct
import time
import zlib

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import constant, convert_to_tensor
from eagerflow.ops.script_ops import py_function
from eagerflow.summary import _event
from eagerflow.summary import _writer

DEFAULT_BUCKET_COUNT = 30
_NO_STEP = ("No step set. Please specify one either through the `step` argument or through "
            "tf.summary.experimental.set_step()")


def _numpy(x):
    if hasattr(x, "numpy"):
        return np.asarray(x.numpy())
    return np.asarray(x)


def _write(tag, make_tensor, plugin, data, step, description, plugin_content=b""):
    """Records one summary value with the default writer; returns a bool tensor (whether it wrote)."""
    writer = _writer.default_writer()
    if writer is None or not _writer.recording_condition():
        return constant(False)
    if step is None:
        step = _writer.get_step()
        if step is None:
            raise ValueError(_NO_STEP)
    metadata = _event.summary_metadata(plugin, plugin_content, description=description or "")
    if _core.current_graph() is not None:
        def write_now(value, step_value):
            _emit(writer, tag, make_tensor(value.numpy()), metadata, step_value.numpy())
            return True
        return py_function(write_now, [convert_to_tensor(data), convert_to_tensor(step, dtype=dtypes.int64)
                                       if not hasattr(step, "_as_tensor") else step], dtypes.bool)
    _emit(writer, tag, make_tensor(_numpy(data)), metadata, _numpy(step))
    return constant(True)


def _emit(writer, tag, tensor, metadata, step):
    writer._write_event(_event.summary_event(time.time(), int(step), tag, tensor, metadata))  # pylint: disable=protected-access


def scalar(name, data, step=None, description=None):
    """A scalar (cast to float32) for TensorBoard's scalars dashboard."""
    if _writer.default_writer() is None:
        return constant(False)
    shape = getattr(data, "shape", np.shape(data))
    if len(tuple(shape)) != 0:
        raise ValueError(f"Expected scalar shape, saw shape: {tuple(shape)}.")

    def make(value):
        return _event.tensor_proto(np.asarray(value, dtype=np.float32))
    return _write(name, make, "scalars", data, step, description)


def histogram_buckets(data, bucket_count=None):
    """TensorBoard's [bucket_count, 3] buckets (left edge, right edge, count) of `data`, in float64."""
    bucket_count = DEFAULT_BUCKET_COUNT if bucket_count is None else int(bucket_count)
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    if bucket_count == 0 or data.size == 0:
        return np.zeros((bucket_count, 3), np.float64)
    lo, hi = data.min(), data.max()
    if lo == hi:  # every bucket is [value, value]; the count goes in the last
        counts = np.zeros(bucket_count, np.float64)
        counts[-1] = data.size
        return np.stack([np.full(bucket_count, lo), np.full(bucket_count, hi), counts], axis=1)
    width = (hi - lo) / bucket_count
    indices = np.minimum(np.floor((data - lo) / width).astype(np.int64), bucket_count - 1)
    counts = np.bincount(indices, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(lo, hi, bucket_count + 1)
    edges[-1] = hi
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def histogram(name, data, step=None, buckets=None, description=None):
    """A histogram of `data` (TensorBoard's bucketing) for the histograms and distributions dashboards."""
    if _writer.default_writer() is None:
        return constant(False)

    def make(value):
        return _event.tensor_proto(histogram_buckets(value, buckets))
    return _write(name, make, "histograms", data, step, description)


def text(name, data, step=None, description=None):
    """A string tensor (Markdown) for TensorBoard's text dashboard."""
    if _writer.default_writer() is None:
        return constant(False)
    data = convert_to_tensor(data) if not hasattr(data, "dtype") else data
    if data.dtype != dtypes.string:
        raise ValueError(f"`data` must be a string tensor, got {data.dtype.name}")

    def make(value):
        return _event.tensor_proto(np.asarray(value, dtype=object))
    return _write(name, make, "text", data, step, description)


def _png(image):
    """PNG bytes of an [h, w, c] uint8 image (c: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA)."""
    h, w, c = image.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    rows = b"".join(b"\x00" + image[y].tobytes() for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def image(name, data, step=None, max_outputs=3, description=None):
    """Up to `max_outputs` images of a [k, h, w, c] batch (floats in [0, 1] or uint8) as PNG."""
    if _writer.default_writer() is None:
        return constant(False)
    shape = tuple(getattr(data, "shape", np.shape(data)))
    if len(shape) != 4 or shape[-1] not in (1, 2, 3, 4):
        raise ValueError(f"Expected image data of shape [k, h, w, c] with c in 1..4, got {shape}")

    def make(value):
        value = np.asarray(value)
        if value.dtype != np.uint8:  # TF's convert_image_dtype(saturate=True)
            value = np.clip(value.astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
        pngs = [_png(img) for img in value[:max_outputs]]
        strings = [str(value.shape[2]).encode(), str(value.shape[1]).encode()] + pngs
        return _event.tensor_proto(np.array(strings, dtype=object))
    return _write(name, make, "images", data, step, description)


def write(tag, tensor, step=None, metadata=None, name=None):
    """A raw tensor summary; `metadata` is a serialized SummaryMetadata (bytes) or None."""
    if _writer.default_writer() is None:
        return constant(False)
    plugin = ""
    return _write_raw(tag, tensor, step, metadata if isinstance(metadata, bytes) else
                      _event.summary_metadata(plugin))


def _write_raw(tag, tensor, step, metadata):
    writer = _writer.default_writer()
    if not _writer.recording_condition():
        return constant(False)
    if step is None:
        step = _writer.get_step()
        if step is None:
            raise ValueError(_NO_STEP)
    value = _numpy(tensor)
    _emit(writer, tag, _event.tensor_proto(value.astype(object) if value.dtype.kind in "SUO" else value),
          metadata, _numpy(step))
    return constant(True)


def should_record_summaries():
    """Whether summaries would be recorded here (a default writer and a true record_if condition)."""
    return constant(_writer.default_writer() is not None and _writer.recording_condition())


def graph(graph_data):
    """Writes a tf.Graph (or its GraphDef) for TensorBoard's graph dashboard; True when written."""
    writer = _writer.default_writer()
    if writer is None or not _writer.recording_condition():
        return constant(False)
    if isinstance(graph_data, bytes):
        data = graph_data
    else:
        graph_def = graph_data.as_graph_def() if hasattr(graph_data, "as_graph_def") else graph_data
        if not hasattr(graph_def, "node"):
            raise TypeError(f"graph_data must be a tf.Graph or a GraphDef, got {type(graph_data).__name__}")
        data = _event.graph_def(graph_def.node)
    writer._write_event(_event.graph_event(time.time(), data))  # pylint: disable=protected-access
    return constant(True)
