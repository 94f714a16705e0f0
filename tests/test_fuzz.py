"""The fuzz test: random calls over the op registry and the public API, eagerly and in
tf.function, each in a forked worker; every call returns or raises one of TF's classes, never
crashes or hangs. Long runs and reproduction: see tests/fuzz/__init__.py."""
import os
import subprocess
import sys

import eagerflow

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
