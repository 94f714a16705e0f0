"""A sweep of common ops against their NumPy equivalents in one process: eagerflow on one intra-op
thread by default (per-core kernel speed; THREADS=2 for the pool), rounds interleaved so both see the
same machine load, min of the rounds. Each NumPy form computes what the op does (np.add.at for a
scatter that sums duplicates, a fancy index for gather_nd); where NumPy has no such op, the nearest
form is named in the row.

    PYTHONPATH=python python benchmarks/ops_vs_numpy.py [substring ...]
    THREADS=2 ROUNDS=15 PYTHONPATH=python python benchmarks/ops_vs_numpy.py pow roll

Rows are printed slowest ratio first; JSON=path writes {row: [eagerflow s, NumPy s]} as well, so
runs of two builds can be set side by side.
"""
import json
import os
import sys
import time

import numpy as np

import eagerflow as tf

tf.config.threading.set_intra_op_parallelism_threads(int(os.environ.get("THREADS", "1")))
ROUNDS = int(os.environ.get("ROUNDS", "9"))


def cases():
    rng = np.random.default_rng(0)
    n = 1_000_000
    x = rng.standard_normal(n).astype(np.float32)
    pos = np.abs(x) + np.float32(0.1)
    m = rng.standard_normal((1000, 1000)).astype(np.float32)
    seg = np.sort(rng.integers(0, 1000, n))
    idx = rng.integers(0, n, 100_000)
    idx2 = rng.integers(0, 1000, (100_000, 2))
    b3 = rng.standard_normal((32, 64, 64)).astype(np.float32)
    ids = rng.integers(0, 1000, n).astype(np.int32)
    X, P, M, SEG, IDX, IDX2, B3, IDS = map(tf.constant, (x, pos, m, seg, idx, idx2, b3, ids))
    COL = tf.constant(x[:100_000].reshape(-1, 1))
    col = x[:100_000].reshape(-1, 1)
    L = tf.shape(X)
    starts = np.searchsorted(seg, np.arange(1000))
    return {
        "pow(x, y) float32 1e6": (lambda: tf.pow(P, X), lambda: np.power(pos, x)),
        "x ** 2.5 float32 1e6": (lambda: tf.pow(P, 2.5), lambda: np.power(pos, np.float32(2.5))),
        "segment_sum sorted 1e6, 1000 ids": (lambda: tf.math.segment_sum(X, SEG),
                                             lambda: np.add.reduceat(x, starts)),
        "tf.repeat(x[:1e5], 3)": (lambda: tf.repeat(X[:100_000], 3), lambda: np.repeat(x[:100_000], 3)),
        "broadcast_to [1e5, 1] -> [1e5, 3]": (lambda: tf.broadcast_to(COL, [100_000, 3]),
                                              lambda: np.broadcast_to(col, (100_000, 3)).copy()),
        "tile [1e5, 1] by [1, 4]": (lambda: tf.tile(COL, [1, 4]), lambda: np.tile(col, (1, 4))),
        "scatter_nd 1e5 into 1e6 (sums)": (lambda: tf.scatter_nd(IDX[:, None], X[:100_000], [n]),
                                           lambda: np.add.at(np.zeros(n, np.float32), idx, x[:100_000])),
        "unsorted_segment_max 1e6 into 1000": (lambda: tf.math.unsorted_segment_max(X, IDS, 1000),
                                                lambda: np.maximum.at(np.full(1000, -np.inf, np.float32), ids, x)),
        "tensor_scatter_nd_update 1e5 of 1e6": (
            lambda: tf.tensor_scatter_nd_update(X, IDX[:, None], X[:100_000]),
            lambda: (lambda z: z.__setitem__(idx, x[:100_000]))(x.copy())),
        "gather_nd 1e5 pairs of 1000²": (lambda: tf.gather_nd(M, IDX2), lambda: m[idx2[:, 0], idx2[:, 1]]),
        "reduce_max axis=0 1000²": (lambda: tf.reduce_max(M, 0), lambda: m.max(0)),
        "reduce_min axis=0 1000²": (lambda: tf.reduce_min(M, 0), lambda: m.min(0)),
        "roll 1e6 by 1000": (lambda: tf.roll(X, 1000, 0), lambda: np.roll(x, 1000)),
        "clip_by_value 1e6": (lambda: tf.clip_by_value(X, -0.5, 0.5), lambda: np.clip(x, -0.5, 0.5)),
        "einsum bij,bjk->bik 32×64×64": (lambda: tf.einsum("bij,bjk->bik", B3, B3), lambda: np.matmul(b3, b3)),
        "slice of a shape vector, l[:1]": (lambda: L[:1], lambda: np.asarray(x.shape)[:1].copy()),
        "m[:, 100:900] 1000²": (lambda: M[:, 100:900], lambda: m[:, 100:900].copy()),
        "tensor.shape": (lambda: M.shape, lambda: m.shape),
    }


def main():
    sel = sys.argv[1:]
    cs = {k: v for k, v in cases().items() if not sel or any(s in k for s in sel)}
    res = {}
    for r in range(ROUNDS):
        for name, (ef, ref) in cs.items():
            for key, f in (("ef", ef), ("np", ref)):
                if r == 0:
                    f()
                reps = 20 if name in ("tensor.shape", "slice of a shape vector, l[:1]") else 3
                t = time.perf_counter()
                for _ in range(reps):
                    f()
                res.setdefault((name, key), []).append((time.perf_counter() - t) / reps)
    rows = sorted(((min(res[k, "ef"]) / min(res[k, "np"]), k) for k in cs), reverse=True)
    print("load average %.1f %.1f %.1f; eagerflow intra-op threads: %s" % (
        *os.getloadavg(), os.environ.get("THREADS", "1")))
    for ratio, k in rows:
        print("%-40s eagerflow %9.1f µs  NumPy %9.1f µs  ratio %.2f" % (
            k, 1e6 * min(res[k, "ef"]), 1e6 * min(res[k, "np"]), ratio))
    if os.environ.get("JSON"):
        with open(os.environ["JSON"], "w") as f:
            json.dump({k: [min(res[k, "ef"]), min(res[k, "np"])] for k in cs}, f, indent=1)


if __name__ == "__main__":
    main()
