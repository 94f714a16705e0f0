"""The fuzz test: random calls over the op registry and the public API, eagerly and in
tf.function, each in a forked worker; every call returns or raises one of TF's classes, never
crashes or hangs. Long runs and reproduction: see tests/fuzz/__init__.py."""
import os
import subprocess
import sys

import eagerflow
from fuzz.runner import Runner
from fuzz.targets import CallBuilder

HERE = os.path.dirname(os.path.abspath(__file__))


def test_fuzz_calls_return_or_raise_tf_classes():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([HERE, os.path.dirname(os.path.dirname(eagerflow.__file__)),
                                         env.get("PYTHONPATH", "")])
    if "ASAN_OPTIONS" in env:  # impossible allocations fail fast instead of filling gigabytes
        env["ASAN_OPTIONS"] += ":max_allocation_size_mb=1024"
    proc = subprocess.run([sys.executable, "-m", "fuzz"], env=env, capture_output=True, text=True)
    print(proc.stdout, proc.stderr[-5000:])
    report = proc.stdout if len(proc.stdout) < 30000 else proc.stdout[:30000] + "\n..."
    assert proc.returncode == 0, f"\n{report}\n{proc.stderr[-3000:]}"


def _snippet(body):
    return "import os, time\nimport eagerflow as tf\n" + body


def test_runner_reports_each_outcome_and_goes_on_after_a_crash_or_hang():
    calls = [(0, "ok", "eager", _snippet("r = tf.constant(1) + 1")),
             (1, "allowed", "eager", _snippet("tf.reshape(tf.constant([1, 2]), [3])")),
             (2, "leak", "eager", _snippet("raise AttributeError('x')")),
             (3, "abort", "eager", _snippet("os.abort()")),
             (4, "hang", "eager", _snippet("time.sleep(60)")),
             (5, "after", "eager", _snippet("r = 1"))]
    runner = Runner(batch=10, timeout=2.0).run(calls)
    assert runner.outcomes == {0: "ok", 1: "InvalidArgumentError", 2: "AttributeError", 3: "crash SIGABRT",
                               4: "hang", 5: "ok"}
    assert [(f["i"], f["label"]) for f in runner.failures] == [(2, "leak"), (3, "abort"), (4, "hang")]
    assert runner.failures[1]["alone"] and "os.abort()" in runner.failures[1]["snippet"]


def test_calls_depend_only_on_seed_and_index():
    builder = CallBuilder(eagerflow, eagerflow._core)
    first = [builder.build(7, i) for i in (0, 1, 500)]
    assert [builder.build(7, i) for i in (500, 1, 0)] == first[::-1]
    assert first[0][1] == "eager" and first[1][1] == "function" and first[0][0] == first[1][0]
