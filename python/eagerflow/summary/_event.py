"""TF's Event and Summary messages in the protobuf wire format, as TensorBoard reads them: the file
header event, and summary values holding a TensorProto with the plugin metadata of the dashboard."""
import numpy as np

from eagerflow.framework.proto_wire import field_bytes, field_double, field_string, field_varint

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
