"""TF's Event and Summary messages in the protobuf wire format, as TensorBoard reads them: the file
header event, and summary values holding a TensorProto with the plugin metadata of the dashboard."""
import numpy as np

from eagerflow.framework.proto_wire import field_bytes, field_double, field_float, field_string, field_varint

FILE_VERSION = "brain.Event:2"
_WRITER = "tensorflow.core.util.events_writer"

# NumPy dtype -> TF DataType enum, for the tensors summaries hold.
_ENUM = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3, np.dtype(np.uint8): 4,
         np.dtype(np.int16): 5, np.dtype(np.int8): 6, np.dtype(np.int64): 9, np.dtype(np.bool_): 10,
         np.dtype(np.float16): 19}


def header_event(wall_time):
    """The first record of every event file."""
    return field_double(1, wall_time) + field_string(3, FILE_VERSION) + field_bytes(10, field_string(1, _WRITER))


def tensor_proto(array):
    """TensorProto of a NumPy array: numbers as tensor_content, strings as string_val."""
    shape = b"".join(field_bytes(2, field_varint(1, d)) for d in array.shape)
    if array.dtype == object or array.dtype.kind in "SU":
        values = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in array.reshape(-1)]
        return field_varint(1, 7) + field_bytes(2, shape) + b"".join(field_bytes(8, v) for v in values)
    return (field_varint(1, _ENUM[array.dtype]) + field_bytes(2, shape)
            + field_string(4, np.ascontiguousarray(array).tobytes()))


def summary_metadata(plugin_name, content=b"", display_name="", description=""):
    plugin = field_string(1, plugin_name) + field_string(2, content)
    return field_bytes(1, plugin) + field_string(2, display_name) + field_string(3, description)


def summary_event(wall_time, step, tag, tensor, metadata):
    """An Event with one Summary.Value (tag, tensor, metadata)."""
    value = field_string(1, tag) + field_bytes(8, tensor) + field_bytes(9, metadata)
    return field_double(1, wall_time) + field_varint(2, step) + field_bytes(5, field_bytes(1, value))


_TYPE_ATTRS = frozenset(["T", "dtype", "DstT", "SrcT", "out_type", "output_type", "Tidx", "Tshape", "Tindices",
                         "Tpaddings", "Tmultiples", "Taxis", "Index", "TI", "Tout", "Tin"])


def _attr_value(name, value):
    """AttrValue for the attr kinds TensorBoard's graph view shows; None for the rest."""
    if type(value).__name__ == "AttrValue":  # as_graph_def()'s: one field set
        for field, number in (("type", 6), ("b", 5), ("i", 3), ("f", 4), ("s", 2)):
            v = getattr(value, field)
            if v is not None:
                return field_float(4, v) if field == "f" else field_bytes(2, v) if field == "s" else \
                    field_varint(number, int(v))
        return None
    if name in _TYPE_ATTRS and isinstance(value, int):
        return field_varint(6, value)
    if isinstance(value, bool):
        return field_varint(5, int(value))
    if isinstance(value, int):
        return field_varint(3, value)
    if isinstance(value, float):
        return field_float(4, value)
    if isinstance(value, (str, bytes)):
        return field_bytes(2, value)
    return None


def graph_def(node_defs):
    """A serialized GraphDef of NodeDef-like objects (name, op, input, device, attr)."""
    out = bytearray()
    for n in node_defs:
        body = field_string(1, n.name) + field_string(2, n.op)
        body += b"".join(field_bytes(3, i) for i in n.input) + field_string(4, n.device or "")
        for key in sorted(n.attr or {}):
            value = _attr_value(key, n.attr[key])
            if value is not None:
                body += field_bytes(5, field_string(1, key) + field_bytes(2, value))
        out += field_bytes(1, body)
    return bytes(out)


def graph_event(wall_time, graph_bytes):
    return field_double(1, wall_time) + field_bytes(4, graph_bytes)
