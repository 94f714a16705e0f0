"""Small kernels of side_by_side.py against NumPy in one process, rounds interleaved so both see the
same machine load; min of the rounds, wall time and process CPU time. A copy of the bytes the
kernel writes (np.copyto: it reads as many) is the memory-bandwidth reference. THREADS=1 runs eagerflow's pool on one thread (per
core kernel speed apart from threading).

    PYTHONPATH=python python benchmarks/kernels_vs_numpy.py
    THREADS=1 PYTHONPATH=python python benchmarks/kernels_vs_numpy.py
"""
import os
import time

import numpy as np

import eagerflow as tf

if os.environ.get("THREADS"):
    tf.config.threading.set_intra_op_parallelism_threads(int(os.environ["THREADS"]))
ROUNDS = int(os.environ.get("ROUNDS", "15"))
rng = np.random.default_rng(0)


def cases():
    a32 = np.arange(1_000_000, dtype=np.int32)
    p, i = rng.random(1_000_000, dtype=np.float32), rng.integers(0, 1_000_000, 100_000)
    m = rng.random((1000, 1000), dtype=np.float32)
    ta, tp, ti, tm = tf.constant(a32), tf.constant(p), tf.constant(i), tf.constant(m)
    # The copies read arrays of their own: reading NumPy's operands would warm the caches for it.
    a32c, pc, mc = a32.copy(), p[:100_000].copy(), m.copy()
    out32, out_g, out_m = np.empty_like(a32), np.empty(100_000, np.float32), np.empty_like(m)
    return {  # name: (eagerflow, NumPy, copy of the bytes the kernel reads and writes)
        "int32 add 1e6": (lambda: tf.add(ta, ta), lambda: np.add(a32, a32), lambda: np.copyto(out32, a32c)),
        "gather 1e5 of 1e6": (lambda: tf.gather(tp, ti), lambda: p[i], lambda: np.copyto(out_g, pc)),
        "argmax axis=1 1000²": (lambda: tf.argmax(tm, 1), lambda: m.argmax(1), lambda: np.copyto(out_m, mc)),
    }


def timed(f, n):
    w, c = time.perf_counter(), time.process_time()
    for _ in range(n):
        f()
    return (time.perf_counter() - w) / n, (time.process_time() - c) / n


def main():
    table = cases()
    print(f"load average {os.getloadavg()[0]:.2f}, threads {os.environ.get('THREADS', 'default')}")
    print("| case | eagerflow wall µs | NumPy wall µs | ratio | eagerflow CPU µs | NumPy CPU µs | ratio | copy µs |")
    print("|---|---|---|---|---|---|---|---|")
    for name, fns in table.items():
        best = [[1e9, 1e9] for _ in fns]
        for f in fns:
            f()
        for r in range(ROUNDS):
            for k in (0, 1, 2) if r % 2 else (1, 0, 2):  # each goes first in half the rounds
                w, c = timed(fns[k], 20)
                best[k] = [min(best[k][0], w), min(best[k][1], c)]
        (ew, ec), (nw, nc), (cw, _) = [[v * 1e6 for v in b] for b in best]
        print(f"| {name} | {ew:.0f} | {nw:.0f} | {ew / nw:.2f} | {ec:.0f} | {nc:.0f} | {ec / nc:.2f} | {cw:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
