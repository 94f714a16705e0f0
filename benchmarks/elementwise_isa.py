"""The unary ops' ISA variants (kernels/cpu/elementwise_isa.h) of a release build against the dev build
(-march=native): the side-by-side table's elementwise chain, eagerly and as a function, and single
transcendental ops, 1e6 float32. Each configuration runs in a worker process of its own; the rounds
alternate the workers so all see the same machine load. One thread (per core), process CPU time, min of
the rounds.

    EAGERFLOW_RELEASE_PYTHON=/tmp/efrel/bin/python PYTHONPATH=python python3 benchmarks/elementwise_isa.py

EAGERFLOW_BEFORE_PYTHON adds a release build from before the copies (one column, no variants).
"""
import json
import os
import subprocess
import sys
import time

ROUNDS = int(os.environ.get("ROUNDS", "5"))
REPEAT = 15
ROWS = ("10 elementwise ops 1e6 (function)", "10 elementwise ops 1e6", "exp 1e6", "tanh 1e6", "sigmoid 1e6",
        "log 1e6", "float64 chain 1e6 (function)")


def worker(variant):
    import numpy as np

    import eagerflow as tf
    from eagerflow import _core

    tf.config.threading.set_intra_op_parallelism_threads(1)
    if variant != "-":
        _core.set_elementwise_isa(variant)

    def chain(x):
        y = tf.exp(-tf.abs(x))
        y = tf.sqrt(y + 1.0) * 0.5 - tf.tanh(x)
        y = tf.maximum(y, 0.1) / (tf.square(x) + 1.0)
        return tf.sigmoid(y)

    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal(1_000_000).astype(np.float32))
    pos = tf.constant(rng.random(1_000_000).astype(np.float32) + 0.5)
    x64 = tf.constant(rng.standard_normal(1_000_000))
    fn, fn64 = tf.function(chain), tf.function(chain)
    rows = {
        ROWS[0]: lambda: fn(x), ROWS[1]: lambda: chain(x), ROWS[2]: lambda: tf.exp(x),
        ROWS[3]: lambda: tf.tanh(x), ROWS[4]: lambda: tf.sigmoid(x), ROWS[5]: lambda: tf.math.log(pos),
        ROWS[6]: lambda: fn64(x64),
    }
    out = {"isa": _core.elementwise_isa() if hasattr(_core, "elementwise_isa") else "-"}
    for name, f in rows.items():
        f()
        best = float("inf")
        for _ in range(REPEAT):
            t = time.process_time()
            f()
            best = min(best, time.process_time() - t)
        out[name] = best
    print(json.dumps(out))


def main():
    dev = [sys.executable]
    configs = {"dev (-march=native)": (dev, "-")}
    release = os.environ.get("EAGERFLOW_RELEASE_PYTHON")
    if release:
        for v in ("avx512", "avx2", "baseline"):
            configs[f"release, {v}"] = ([release], v)
    before = os.environ.get("EAGERFLOW_BEFORE_PYTHON")
    if before:
        configs["release, before the copies"] = ([before], "-")
    best = {c: {} for c in configs}
    for _ in range(ROUNDS):
        for c, (py, variant) in configs.items():
            env = dict(os.environ)
            if py is not dev:
                env.pop("PYTHONPATH", None)
            r = subprocess.run(py + [__file__, "--worker", variant], env=env, capture_output=True, text=True)
            if r.returncode:
                print(f"{c}: {r.stderr.strip().splitlines()[-1]}")
                continue
            got = json.loads(r.stdout.strip().splitlines()[-1])
            if got["isa"] != variant and variant != "-":
                continue
            for k, v in got.items():
                if k != "isa":
                    best[c][k] = min(v, best[c].get(k, float("inf")))
    names = list(configs)
    print("| row | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for row in ROWS:
        cells = [f"{best[c][row] * 1e3:.2f} ms" if row in best[c] else "" for c in names]
        print(f"| {row} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
