"""tf.device: a scope that places the ops run inside it on a device.

A device that does not exist (e.g. '/gpu:0' without a GPU) falls back to the CPU, like TF's
soft placement in eager mode; an op without a kernel for the scope's device runs on the CPU.
"""
from eagerflow import _core

_SCOPE_KEYS = ("job", "replica", "task")


def _parse(spec):
    """(device_type, index) named by a TF device string, (None, None) when it names none.
    Raises ValueError with TF's message for unknown components."""
    device_type, index = None, None
    for part in spec.split("/"):
        if not part:
            continue
        fields = part.split(":")
        key = fields[0].lower()
        if key in _SCOPE_KEYS and len(fields) == 2:
            continue
        if key == "device":
            fields = fields[1:]
        if len(fields) in (1, 2) and fields[0].upper() in ("CPU", "GPU") and (
                len(fields) == 1 or fields[1] == "*" or fields[1].isdigit()):
            device_type = fields[0].upper()
            index = int(fields[1]) if len(fields) == 2 and fields[1].isdigit() else 0
            continue
        raise ValueError(f"Unknown attribute '{key}' is encountered while parsing the device spec: '{spec}'.")
    return device_type, index


def _effective(device_type, index):
    """The device spec ops will really use (soft placement: a missing GPU means the CPU)."""
    if device_type == "GPU" and index < len(_core.list_physical_devices("GPU")):
        return "/device:GPU:%d" % index
    return "/device:CPU:0"


class _DeviceScope:
    """The context manager tf.device returns; scopes nest and restore the previous device."""

    def __init__(self, name):
        self._name = name
        self._stack = []

    def __enter__(self):
        current = _core.current_device()
        spec = current
        if self._name:
            device_type, index = _parse(self._name)
            if device_type is not None:
                spec = _effective(device_type, index)
        else:
            spec = ""  # tf.device(None) / tf.device(''): back to the default device
        self._stack.append(_core.set_device(spec))
        return self

    def __exit__(self, exc_type, exc_value, tb):
        _core.set_device(self._stack.pop())
        return False


def device(device_name):
    """tf.device(name): ops created inside `with tf.device(name):` run on that device."""
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions.")
    if device_name is not None and not isinstance(device_name, str):
        device_name = device_name.to_string() if hasattr(device_name, "to_string") else str(device_name)
    return _DeviceScope(device_name)
