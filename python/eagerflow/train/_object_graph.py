"""TF's TrackableObjectGraph message (the `_CHECKPOINTABLE_OBJECT_GRAPH` entry of a checkpoint) in the
protobuf wire format: nodes with their named children and their serialized attributes (checkpoint keys).

Decoding reads only these fields and checks every length, so a corrupt graph is a DataLossError.
"""
import collections

from eagerflow.framework import errors
from eagerflow.framework.proto_wire import field_bytes as _field_bytes, fields as _fields
from eagerflow.framework.proto_wire import field_string as _field_string, field_varint as _field_varint

ObjectReference = collections.namedtuple("ObjectReference", ["node_id", "local_name"])
SerializedTensor = collections.namedtuple("SerializedTensor", ["name", "full_name", "checkpoint_key"])
SlotVariableReference = collections.namedtuple("SlotVariableReference",
                                               ["original_variable_node_id", "slot_name", "slot_variable_node_id"])


class TrackableObject:
    """One node: `children` (ObjectReference), `attributes` (SerializedTensor), `slot_variables`."""

    __slots__ = ("children", "attributes", "slot_variables", "has_checkpoint_values")

    def __init__(self, children=(), attributes=(), slot_variables=(), has_checkpoint_values=False):
        self.children = list(children)
        self.attributes = list(attributes)
        self.slot_variables = list(slot_variables)
        self.has_checkpoint_values = has_checkpoint_values


def encode(nodes):
    """Serialized TrackableObjectGraph of a list of TrackableObject."""
    out = bytearray()
    for node in nodes:
        body = bytearray()
        for ref in node.children:
            body += _field_bytes(1, _field_varint(1, ref.node_id) + _field_string(2, ref.local_name))
        for attr in node.attributes:
            body += _field_bytes(2, _field_string(1, attr.name) + _field_string(2, attr.full_name)
                                 + _field_string(3, attr.checkpoint_key))
        for slot in node.slot_variables:
            body += _field_bytes(3, _field_varint(1, slot.original_variable_node_id) + _field_string(2, slot.slot_name)
                                 + _field_varint(3, slot.slot_variable_node_id))
        body += _field_bytes(5, _field_varint(1, 1 if node.has_checkpoint_values else 0))
        out += _field_bytes(1, bytes(body))
    return bytes(out)


def _message(data, spec):
    """Decodes a flat message: spec maps field number -> (name, 'int' | 'str')."""
    out = {name: (0 if kind == "int" else "") for name, kind in spec.values()}
    for field, value in _fields(data):
        if field in spec:
            name, kind = spec[field]
            if kind == "str":
                if not isinstance(value, bytes):
                    raise ValueError("expected a string field")
                value = value.decode("utf-8")
            elif not isinstance(value, int):
                raise ValueError("expected an integer field")
            out[name] = value
    return out


def decode(data, filename="checkpoint"):
    """The list of TrackableObject in a serialized TrackableObjectGraph."""
    try:
        nodes = []
        for field, value in _fields(bytes(data)):
            if field != 1 or not isinstance(value, bytes):
                continue
            node = TrackableObject()
            for f, v in _fields(value):
                if not isinstance(v, bytes):
                    continue
                if f == 1:
                    node.children.append(ObjectReference(**_message(v, {1: ("node_id", "int"),
                                                                        2: ("local_name", "str")})))
                elif f == 2:
                    node.attributes.append(SerializedTensor(**_message(v, {1: ("name", "str"),
                                                                           2: ("full_name", "str"),
                                                                           3: ("checkpoint_key", "str")})))
                elif f == 3:
                    node.slot_variables.append(SlotVariableReference(**_message(
                        v, {1: ("original_variable_node_id", "int"), 2: ("slot_name", "str"),
                            3: ("slot_variable_node_id", "int")})))
                elif f == 5:
                    node.has_checkpoint_values = bool(_message(v, {1: ("value", "int")})["value"])
            nodes.append(node)
    except (ValueError, UnicodeDecodeError) as e:
        raise errors.DataLossError(None, None, f"Unable to parse the object graph of checkpoint {filename}: {e}") \
            from None
    for node in nodes:
        for ref in node.children:
            if not 0 <= ref.node_id < len(nodes):
                raise errors.DataLossError(None, None, f"Object graph of checkpoint {filename} names node "
                                                       f"{ref.node_id} of {len(nodes)}")
    return nodes
