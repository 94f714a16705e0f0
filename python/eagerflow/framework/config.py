"""tf.config: device listing and threading settings."""
import collections
import re

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


# Memory statistics (TF's oneDNN CPU allocator: only buffers of 256 KiB and more are counted, as
# TF's BFC allocator serves and reports only those on CPU).
_DEVICE_FIELD = re.compile(r"/(?:job:([A-Za-z][A-Za-z0-9_]*|\*)|(replica|task):(\d+|\*)"
                           r"|device:([A-Za-z_][A-Za-z0-9_]*)(?::(\d+|\*))?|([A-Za-z_][A-Za-z0-9_]*):(\d+|\*))")
_LOCAL_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(\d+)")


def _parse_device_name(name):
    """TF's DeviceNameUtils::ParseFullOrLocalName: (job, replica, task, type, index), None = any;
    False when `name` does not parse."""
    local = _LOCAL_NAME.fullmatch(name)
    if local:
        return None, None, None, local.group(1), int(local.group(2))
    parsed = {"job": None, "replica": None, "task": None, "type": None, "index": None}
    pos = 0
    while pos < len(name):
        m = _DEVICE_FIELD.match(name, pos)
        if not m:
            return False
        job, key, number, dev_type, dev_index, legacy_type, legacy_index = m.groups()
        if job is not None:
            parsed["job"] = None if job == "*" else job
        elif key is not None:
            parsed[key] = None if number == "*" else int(number)
        else:
            t, i = (dev_type, dev_index) if dev_type is not None else (legacy_type, legacy_index)
            if dev_type is None and t in ("cpu", "gpu"):  # the legacy "/cpu:0" spelling
                t = t.upper()
            parsed["type"], parsed["index"] = t, None if i in (None, "*") else int(i)
        pos = m.end()
    return parsed["job"], parsed["replica"], parsed["task"], parsed["type"], parsed["index"]


def _check_memory_device(device):
    if device is None:
        device = ""
    if isinstance(device, bytes):
        device = device.decode()
    if not isinstance(device, str):
        raise TypeError("TFE_GetMemoryInfo(): incompatible function arguments. The following argument types "
                        "are supported:\n    1. (arg0: object, arg1: str) -> dict[str, int]\n\n"
                        "Invoked with: <capsule object NULL>, %r" % (device,))
    parsed = _parse_device_name(device)
    if parsed is False:
        raise ValueError("Failed parsing device name: '%s'. Note a valid device string should at least contain "
                         "a device type and a device index, like \"GPU:0\"." % device)
    job, replica, task, dtype, index = parsed
    if job not in (None, "localhost") or replica not in (None, 0) or task not in (None, 0) or \
            dtype not in (None, "CPU") or index not in (None, 0):
        raise ValueError("No matching devices found for '%s'" % device)


def get_memory_info(device):
    """{'current': bytes in use, 'peak': the most in use since the start or the last reset}."""
    _check_memory_device(device)
    stats = _core.cpu_allocator_stats()
    return {"current": stats["bytes_in_use"], "peak": stats["peak_bytes_in_use"]}


def reset_memory_stats(device):
    """Resets the peak of get_memory_info to the current use."""
    _check_memory_device(device)
    _core.reset_cpu_allocator_peak()


def get_memory_usage(device):
    """Deprecated by TF: get_memory_info(device)['current']."""
    return get_memory_info(device)["current"]
