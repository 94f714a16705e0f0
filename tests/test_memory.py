"""Memory: eager ops release their tensors (RSS stays flat over 1e6 small ops)."""
import os

import numpy as np
import pytest

import eagerflow as tf


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
@pytest.mark.skipif(bool(os.environ.get("EAGERFLOW_SANITIZE")), reason="ASan's quarantine keeps freed blocks")
def test_rss_flat_over_1e6_eager_ops():
    a = tf.constant([1.0, 2.0, 3.0, 4.0])
    b = tf.constant([1.0, 1.0, 1.0, 1.0])
    big = tf.constant(np.ones(1000, np.float32))
    for _ in range(50_000):  # warm up allocator pools
        a + b
    before = _rss_bytes()
    for _ in range(500_000):
        a + b
        big * 2.0
    after = _rss_bytes()
    assert after - before < 8 * 1024 * 1024, (before, after)


def test_numpy_view_keeps_tensor_alive():
    t = tf.constant(np.arange(1000, dtype=np.float32))
    view = np.asarray(t)
    del t
    assert view[999] == 999.0
