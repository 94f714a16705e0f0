"""The float32 convolution kernels this CPU and build can run (_core.set_conv_kernel names), for tests
that compare them."""
from eagerflow import _core


def available(names=("avx512", "avx2", "generic")):
    out, prev = [], _core.conv_kernel()
    for name in names:
        try:
            _core.set_conv_kernel(name)
            out.append(name)
        except Exception:  # noqa: BLE001 (this CPU or build lacks it)
            pass
    _core.set_conv_kernel(prev)
    return out
