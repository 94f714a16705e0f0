"""The reductions of side_by_side.py (and reduce_max) against NumPy, for several builds of eagerflow and
their ISA copies (kernels/cpu/reduction_isa.h). Each configuration runs in a worker process of its own,
which times eagerflow and NumPy interleaved; the rounds alternate the workers so all see the same
machine load. Min of the rounds of wall time, or with CPU=1 of process CPU time (on a loaded machine a
long op is preempted in most runs; CPU time leaves that out). THREADS=1 runs eagerflow's pool on one
thread.

    python benchmarks/reductions_isa.py dev=python release=/tmp/rel/python:avx512,avx2,baseline

Each argument is NAME=PYTHONPATH (a tree whose eagerflow has its _core), with :VARIANTS to run the
named ISA copies (_core.set_elementwise_isa) one by one.
"""
import json
import os
import subprocess
import sys
import time

ROUNDS = int(os.environ.get("ROUNDS", "5"))
REPEAT = 15
ROWS = ("reduce_sum 1e7", "reduce_mean axis=1 1000²", "reduce_max 1e7", "argmax axis=1 1000²",
        "reduce_sum axis=0 1000²")


def worker(variant):
    import numpy as np

    import eagerflow as tf
    from eagerflow import _core

    if variant != "-":
        _core.set_elementwise_isa(variant)
    if os.environ.get("THREADS"):
        tf.config.threading.set_intra_op_parallelism_threads(int(os.environ["THREADS"]))
    rng = np.random.default_rng(0)
    v, m = rng.random(10_000_000, dtype=np.float32), rng.random((1000, 1000), dtype=np.float32)
    tv, tm = tf.constant(v), tf.constant(m)
    rows = {
        ROWS[0]: (lambda: tf.reduce_sum(tv), lambda: v.sum()),
        ROWS[1]: (lambda: tf.reduce_mean(tm, axis=1), lambda: m.mean(axis=1)),
        ROWS[2]: (lambda: tf.reduce_max(tv), lambda: v.max()),
        ROWS[3]: (lambda: tf.argmax(tm, 1), lambda: m.argmax(1)),
        ROWS[4]: (lambda: tf.reduce_sum(tm, axis=0), lambda: m.sum(axis=0)),
    }
    out = {"isa": _core.elementwise_isa() if hasattr(_core, "elementwise_isa") else "-"}
    for name, fns in rows.items():
        best = [float("inf"), float("inf")]
        for f in fns:
            f()
        clock = time.process_time if os.environ.get("CPU") else time.perf_counter
        for r in range(REPEAT):
            for k in (0, 1) if r % 2 else (1, 0):
                t = clock()
                fns[k]()
                best[k] = min(best[k], clock() - t)
        out[name] = best
    print(json.dumps(out))


def main(args):
    configs = {}
    for a in args:
        name, path = a.split("=", 1)
        path, _, variants = path.partition(":")
        for v in variants.split(",") if variants else ["-"]:
            configs[name if v == "-" else f"{name}, {v}"] = (path, v)
    best = {c: {} for c in configs}
    for _ in range(ROUNDS):
        for c, (path, variant) in configs.items():
            env = dict(os.environ, PYTHONPATH=path)
            r = subprocess.run([sys.executable, __file__, "--worker", variant], env=env, capture_output=True,
                               text=True)
            if r.returncode:
                print(f"{c}: {r.stderr.strip().splitlines()[-1]}")
                continue
            got = json.loads(r.stdout.strip().splitlines()[-1])
            for k, (e, n) in ((k, v) for k, v in got.items() if k != "isa"):
                old = best[c].get(k, (float("inf"), float("inf")))
                best[c][k] = (min(e, old[0]), min(n, old[1]))
    names = list(configs)
    print(f"load average {os.getloadavg()[0]:.2f} (at the end), threads {os.environ.get('THREADS', 'default')}, "
          f"{'CPU' if os.environ.get('CPU') else 'wall'} time")
    print("| row | " + " | ".join(names) + " | NumPy |")
    print("|---" * (len(names) + 2) + "|")
    for row in ROWS:
        cells = [f"{best[c][row][0] * 1e3:.3f} ms" if row in best[c] else "" for c in names]
        numpy = min((best[c][row][1] for c in names if row in best[c]), default=float("nan"))
        print(f"| {row} | " + " | ".join(cells) + f" | {numpy * 1e3:.3f} ms |")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main(sys.argv[1:])
