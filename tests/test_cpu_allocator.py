"""The CPU allocator: tf.config.experimental.get_memory_info / reset_memory_stats as TF reports them,
reuse of freed large blocks, trim, and threads that never see each other's live buffers."""
import os
import re
import threading
import time

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

CACHES = not os.environ.get("EAGERFLOW_SANITIZE")  # ASan builds cache nothing
info = tf.config.experimental.get_memory_info


@pytest.mark.parametrize("name", ["CPU:0", "/CPU:0", "/cpu:0", "/device:CPU:0", "CPU:00", "/device:CPU:*", "",
                                  "/job:localhost", "/job:localhost/replica:0/task:0/device:CPU:0", b"CPU:0",
                                  "/job:*/device:CPU:0", "/device:CPU", None])
def test_memory_info_device_names(name):
    got = info(name)
    assert sorted(got) == ["current", "peak"] and got["peak"] >= got["current"] >= 0
    tf.config.experimental.reset_memory_stats(name)


@pytest.mark.parametrize("name", ["GPU:0", "cpu:0", "Cpu:0", "/device:cpu:0", "CPU:1", "/task:1/device:CPU:0",
                                  "/job:foo/device:CPU:0", "/device:XLA_CPU:0", "TPU:0"])
def test_memory_info_no_matching_device(name):
    with pytest.raises(ValueError, match="^" + re.escape("No matching devices found for '%s'" % name) + "$"):
        info(name)
    with pytest.raises(ValueError, match="No matching devices"):
        tf.config.experimental.reset_memory_stats(name)


@pytest.mark.parametrize("name", ["CPU", "CPU:*", "CPU:0 ", "CPU:-1", "CPU:0:1", "device:CPU:0", "/job:local host",
                                  "/job:", "/device:CPU:"])
def test_memory_info_unparsable_name(name):
    with pytest.raises(ValueError, match="^" + re.escape("Failed parsing device name: '%s'. Note a valid device string" % name)):
        info(name)


def test_memory_info_rejects_non_strings():
    with pytest.raises(TypeError, match="incompatible function arguments"):
        info(3)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        tf.config.experimental.reset_memory_stats(1.5)


def test_memory_info_counts_large_buffers_only():
    base = info("CPU:0")["current"]
    small = tf.ones([65535])  # under 256 KiB: TF's small-size allocator, not reported
    assert info("CPU:0")["current"] == base
    big = tf.ones([1000, 1000])
    assert info("CPU:0")["current"] == base + 4_000_000
    odd = tf.ones([65537])  # rounded up to 256 bytes, as TF's BFC allocator counts it
    assert info("CPU:0")["current"] == base + 4_000_000 + 262400
    del big, odd, small
    assert info("CPU:0")["current"] == base
    assert tf.config.experimental.get_memory_usage("CPU:0") == base


def test_peak_and_reset_memory_stats():
    tf.config.experimental.reset_memory_stats("CPU:0")
    base = info("CPU:0")
    assert base["peak"] == base["current"]
    a = tf.ones([1_000_000])
    b = a + a
    del a, b
    got = info("CPU:0")
    assert got["current"] == base["current"]
    assert got["peak"] == base["current"] + 8_000_000
    tf.config.experimental.reset_memory_stats("CPU:0")
    assert info("CPU:0")["peak"] == base["current"]


@pytest.mark.skipif(not CACHES, reason="the sanitizer build caches nothing")
def test_freed_large_blocks_are_reused_and_trimmed():
    _core.trim_cpu_allocator()
    x = tf.ones([2_000_000])
    y = x + 1.0
    del y
    before = _core.cpu_allocator_stats()
    assert before["bytes_cached"] >= 8_000_000
    for _ in range(10):
        y = x + 1.0  # each output takes the block the previous one gave back
        del y
    after = _core.cpu_allocator_stats()
    assert after["num_cache_hits"] - before["num_cache_hits"] == 10
    assert after["bytes_cached"] == before["bytes_cached"]
    assert _core.trim_cpu_allocator() == before["bytes_cached"]
    assert _core.cpu_allocator_stats()["bytes_cached"] == 0
    np.testing.assert_array_equal(x.numpy()[:3], [1, 1, 1])


def test_cache_limit_bounds_the_cache():
    prev = _core.set_cpu_allocator_cache_limit(0)
    try:
        y = tf.ones([1_000_000]) + 1.0
        del y
        assert _core.cpu_allocator_stats()["bytes_cached"] == 0
        with pytest.raises(ValueError, match="cache limit"):
            _core.set_cpu_allocator_cache_limit(-1)
    finally:
        _core.set_cpu_allocator_cache_limit(prev)
    assert _core.cpu_allocator_stats()["cache_limit"] == prev


def _check_rows(tensors):
    for value, t in tensors:
        arr = t.numpy()
        assert (arr == value).all(), value


def test_threads_never_share_live_buffers():
    sizes = [1000, 70_000, 65_536, 100_000, 300_000, 1_000_000]
    errors = []

    def work(tid):
        rng = np.random.default_rng(tid)
        live = []
        try:
            for i in range(60):
                value = float(tid * 1000 + i)
                n = sizes[rng.integers(len(sizes))]
                live.append((value, tf.fill([n], value) * 1.0))
                if len(live) > 3 or rng.integers(2):
                    _check_rows([live.pop(rng.integers(len(live)))])
            _check_rows(live)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_pipeline_threads_never_share_live_buffers():
    # tf.data's parallel map runs its function on pipeline threads (no GIL) that allocate concurrently.
    sizes = tf.constant([1000, 70_000, 100_000, 300_000, 1_000_000])
    ds = tf.data.Dataset.range(200).map(
        lambda i: tf.fill([tf.gather(sizes, i % 5)], tf.cast(i, tf.float32)) * 1.0,
        num_parallel_calls=4).prefetch(4)
    for i, row in enumerate(ds):
        arr = row.numpy()
        assert arr.shape == ([1000, 70_000, 100_000, 300_000, 1_000_000][i % 5],)
        assert (arr == i).all(), i


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_child_allocates_while_pipeline_threads_allocate():
    # A fork must not copy the cache's lock held by a pipeline thread into the child.
    ds = tf.data.Dataset.range(10**6).map(lambda i: tf.fill([300_000], tf.cast(i, tf.float32)),
                                         num_parallel_calls=2).prefetch(8)
    it = iter(ds)
    source = np.ones(100_000, np.float32)
    for _ in range(20):
        next(it)
        pid = os.fork()
        if pid == 0:  # the child: one large buffer (a copy, no thread pool), then out
            ok = float(tf.constant(source).numpy().sum()) == 100_000.0
            os._exit(0 if ok else 1)
        deadline = time.monotonic() + 60
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                pytest.fail("the forked child hung allocating a large buffer")
            time.sleep(0.01)
        assert os.waitstatus_to_exitcode(status) == 0
