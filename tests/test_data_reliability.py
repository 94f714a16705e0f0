"""Pipelines over time and under interruption: RSS stays flat over 100 epochs of a
map + shuffle + batch + prefetch pipeline, and Ctrl-C (SIGINT) while the consumer waits on a
prefetch, parallel-map or generator thread raises KeyboardInterrupt promptly and leaves no pipeline
thread behind once the iterator is gone."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import eagerflow as tf

# The child imports the eagerflow this test imports (the source tree has no _core when installed by pip).
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__)))


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
@pytest.mark.skipif(bool(os.environ.get("EAGERFLOW_SANITIZE")), reason="ASan's quarantine keeps freed blocks")
def test_rss_flat_over_100_epochs():
    x = np.random.default_rng(0).random((2000, 64), dtype=np.float32)
    ds = (tf.data.Dataset.from_tensor_slices((x, np.arange(2000))).map(lambda a, b: (a * 2.0, b),
                                                                        num_parallel_calls=2)
          .shuffle(500).batch(32).prefetch(2))

    def epoch():
        n = 0
        for a, _ in ds:
            n += int(a.shape[0])
        assert n == 2000
    for _ in range(5):  # warm up allocator pools and thread stacks
        epoch()
    before = _rss_bytes()
    for _ in range(100):
        epoch()
    after = _rss_bytes()
    assert after - before < 8 * 1024 * 1024, (before, after)


_CHILD = textwrap.dedent("""
    import os, sys, time
    import eagerflow as tf

    def threads():
        return len(os.listdir("/proc/self/task"))

    def slow_gen():
        i = 0
        while True:
            time.sleep(0.2)
            yield i
            i += 1

    def slow(x):
        time.sleep(0.2)
        return x

    kind = sys.argv[1]
    if kind in ("prefetch", "function"):
        ds = tf.data.Dataset.from_generator(slow_gen, output_signature=tf.TensorSpec([], tf.int64)).prefetch(2)
    elif kind == "parallel_map":
        ds = tf.data.Dataset.range(10**6).map(lambda x: tf.py_function(slow, [x], tf.int64), num_parallel_calls=2)
    elif kind == "generator":
        ds = tf.data.Dataset.from_generator(slow_gen, output_signature=tf.TensorSpec([], tf.int64))
    elif kind == "interleave":
        ds = tf.data.Dataset.range(2).interleave(
            lambda _: tf.data.Dataset.from_generator(slow_gen, output_signature=tf.TensorSpec([], tf.int64)),
            cycle_length=2, num_parallel_calls=2)
    base = threads()

    @tf.function
    def loop(d):
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x
        return s

    it = iter(ds)
    next(it)
    print("ready", flush=True)
    start = time.monotonic()
    try:
        if kind == "function":
            loop(ds)
        for _ in it:
            pass
    except KeyboardInterrupt:
        print("interrupted %.3f" % (time.monotonic() - start), flush=True)
    del it
    deadline = time.monotonic() + 5
    while threads() > base and time.monotonic() < deadline:
        time.sleep(0.05)
    print("threads", threads() - base, flush=True)
""")


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc")
@pytest.mark.parametrize("kind", ["prefetch", "parallel_map", "generator", "interleave", "function"])
def test_ctrl_c_interrupts_a_waiting_iterator(kind):
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        time.sleep(0.5)  # the consumer is waiting now
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = out.split("\n")
    assert proc.returncode == 0, (out, err)
    assert lines[0].startswith("interrupted"), (out, err)
    assert float(lines[0].split()[1]) < 5.0
    assert lines[1] == "threads 0", (out, err)
