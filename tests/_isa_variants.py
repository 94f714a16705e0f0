"""The per-ISA copies (kernels/cpu/elementwise_isa.h, reduction_isa.h) this CPU and build have, fastest
first, and a fixture that runs a test in each. Release builds (pip install) have avx512, avx2 and
baseline; dev builds only baseline (their -march=native)."""
import contextlib

import pytest

import eagerflow as tf
from eagerflow import _core


def available():
    out, prev = [], _core.elementwise_isa()
    for name in ("avx512", "avx2", "baseline"):
        try:
            _core.set_elementwise_isa(name)
            out.append(name)
        except tf.errors.InvalidArgumentError:  # this CPU or build lacks it
            pass
    _core.set_elementwise_isa(prev)
    return out


VARIANTS = available()


@contextlib.contextmanager
def isa(name):
    prev = _core.set_elementwise_isa(name)
    try:
        yield name
    finally:
        _core.set_elementwise_isa(prev)


@pytest.fixture(params=VARIANTS)
def variant(request):
    with isa(request.param):
        yield request.param
