"""tf.config: device listing and threading settings."""
import collections

from eagerflow import _core

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])

_DEVICE_TYPES = ("CPU", "GPU")


def list_physical_devices(device_type=None):
    """Physical devices of `device_type` ('CPU', 'GPU'; case-sensitive like TF), or all of them."""
    types = _DEVICE_TYPES if device_type is None else (device_type,)
    out = []
    for t in types:
        if t in _DEVICE_TYPES:
            out.extend(PhysicalDevice(name=n, device_type=t) for n in _core.list_physical_devices(t))
    return out


def list_logical_devices(device_type=None):
    """Logical devices: one per physical device, named '/device:CPU:0' and so on."""
    return [LogicalDevice(name=d.name.replace("/physical_device:", "/device:"), device_type=d.device_type)
            for d in list_physical_devices(device_type)]


_visible = None


def get_visible_devices(device_type=None):
    devices = list_physical_devices(device_type) if _visible is None else list(_visible)
    if device_type is not None:
        devices = [d for d in devices if d.device_type == device_type]
    return devices


def set_visible_devices(devices, device_type=None):
    """Records the visible devices (the CPU stays usable: soft placement falls back to it)."""
    global _visible
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    _visible = list(devices)


_memory_growth = {}


def get_memory_growth(device):
    if device not in _memory_growth and device.device_type != "GPU":
        raise KeyError(repr(device))
    return _memory_growth.get(device, False)


def set_memory_growth(device, enable):
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU devices")
    _memory_growth[device] = bool(enable)


# tf.config.threading (0 means "let the runtime choose": all cores).
_threads = {"intra": 0, "inter": 0}
_default_threads = _core.num_threads()


def get_intra_op_parallelism_threads():
    return _threads["intra"]


def set_intra_op_parallelism_threads(num_threads):
    _threads["intra"] = int(num_threads)
    _core.set_num_threads(_threads["intra"] if _threads["intra"] > 0 else _default_threads)


def get_inter_op_parallelism_threads():
    return _threads["inter"]


def set_inter_op_parallelism_threads(num_threads):
    _threads["inter"] = int(num_threads)  # eager ops run one at a time: recorded only
