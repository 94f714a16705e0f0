"""The MLP and dense-net SGD steps of side_by_side.py (same code), eagerflow, NumPy and TensorFlow (when
importable) in one process, in interleaved rounds so every variant sees the same machine load.
Prints the min over rounds of wall time and of process CPU time per step (all threads).

"eagerflow GEMM floor" is a function of the step's matrix products alone (same shapes, transposes and
fused weight updates, on constants): no compiled step can take less, so eager ÷ floor bounds what
tf.function can gain over eager on this machine. A 1024² matmul's rate, in the same rounds, is the
GEMM's rate on this machine for comparison.

    PYTHONPATH=python /tmp/tf/bin/python benchmarks/mlp_interleaved.py [ROUNDS=7] [ROWS=MLP,dense] [NUMPY=1]

MAX_ISA=avx2 (with side_by_side.MAX_ISA_ENV["avx2"] in the environment, and a release build: a
-march=native one has no AVX2 copy) runs every variant on AVX2 code.

NumPy's step is left out unless NUMPY=1: its OpenBLAS's threads spin for a while after each of its
products and take a core from whichever variant runs next.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import side_by_side as sbs  # noqa: E402

import eagerflow as EF  # noqa: E402

try:
    import tensorflow as TF
except ImportError:
    TF = None

ROWS = ("MLP 784-256-10 SGD step, batch 128", sbs.DENSE_ROW)
NETS = {ROWS[0]: ((784, 256, 10), 128), ROWS[1]: (sbs.DENSE, 100)}  # layer widths, batch


def floor_flops(widths, batch):
    """The floating-point operations of gemm_floor's products (2 per multiply-add)."""
    macs = sum(batch * m * n for m, n in zip(widths[:-1], widths[1:]))  # forward
    macs += sum(batch * m * n for m, n in zip(widths[1:-1], widths[2:]))  # backward d @ w^T
    return 2 * (macs + sum(batch * m * n for m, n in zip(widths[:-1], widths[1:])))  # + weight gradients


def gemm_floor(widths, batch):
    """The products of an SGD step of the dense net `widths`: forward x @ w per layer, and backward
    w -= lr * h^T @ d per layer and d @ w^T for every layer but the first."""
    tf = EF
    rng = np.random.default_rng(0)
    f32 = lambda *s: tf.constant(rng.standard_normal(s, dtype=np.float32))  # noqa: E731
    ins = [f32(batch, m) for m in widths[:-1]]
    ds = [f32(batch, n) for n in widths[1:]]
    ws = [tf.Variable(rng.standard_normal((m, n), dtype=np.float32) * 0.01) for m, n in zip(widths[:-1], widths[1:])]

    @tf.function
    def step():
        outs = [tf.matmul(x, w) for x, w in zip(ins, ws)]
        outs += [tf.matmul(d, w, transpose_b=True) for d, w in zip(ds[1:], ws[1:])]
        for x, d, w in zip(ins, ds, ws):
            w.assign_sub(0.01 * tf.matmul(x, d, transpose_a=True))
        return outs
    return step


def variants():
    out = []
    for row in ROWS:
        if not any(r in row for r in os.environ.get("ROWS", "MLP,dense").split(",")):
            continue
        for fw, m in (("eagerflow", EF), ("tensorflow", TF)):
            if m is None:
                continue
            rows = sbs._tf_rows(m, np)
            out.append((row, fw + " eager", rows[row]()))
            out.append((row, fw + " function", rows[row + " (function)"]()))
        out.append((row, "eagerflow GEMM floor", gemm_floor(*NETS[row])))
        a = EF.constant(np.random.default_rng(0).standard_normal((1024, 1024), dtype=np.float32))
        out.append((row, "eagerflow matmul 1024²", lambda a=a: EF.matmul(a, a)))
        if os.environ.get("NUMPY") == "1":
            out.append((row, "numpy", sbs._numpy_rows(np)[row]()))
    return out


def main():
    max_isa = os.environ.get("MAX_ISA", "")
    if max_isa:  # side_by_side.py --max-isa: OpenBLAS's switch must be in the environment at its load
        for k, v in sbs.MAX_ISA_ENV[max_isa].items():
            if os.environ.get(k) != v:
                raise SystemExit("MAX_ISA=%s needs %s=%s in the environment" % (max_isa, k, v))
        EF._core.set_elementwise_isa(max_isa)
        EF._core.set_conv_kernel(max_isa)
    vs = variants()
    for _, _, f in vs:  # traced and warm
        for _ in range(3):
            f()
    wall = {v[:2]: [] for v in vs}
    cpu = {v[:2]: [] for v in vs}
    for _ in range(int(os.environ.get("ROUNDS", "7"))):
        for row, name, f in vs:
            n = 20
            t, c = time.perf_counter(), time.process_time()
            for _ in range(n):
                f()
            wall[row, name].append((time.perf_counter() - t) / n)
            cpu[row, name].append((time.process_time() - c) / n)
    print("load average %.1f %.1f %.1f" % os.getloadavg())
    for row in ROWS:
        keys = [k for k in wall if k[0] == row]
        if not keys:
            continue
        print(row)
        for k in keys:
            print("  %-22s wall min %6.2f ms  median %6.2f ms   CPU min %6.2f ms" % (
                k[1], 1e3 * min(wall[k]), 1e3 * np.median(wall[k]), 1e3 * min(cpu[k])))
        e, f = wall.get((row, "eagerflow eager")), wall.get((row, "eagerflow function"))
        if e and f:
            print("  eagerflow function gain over eager: %.2fx (min), %.2fx (median)" % (
                min(e) / min(f), np.median(e) / np.median(f)))
        e, f = wall.get((row, "eagerflow eager")), wall.get((row, "eagerflow GEMM floor"))
        if f:
            print("  the GEMM floor's products: %.0f MFLOP at %.0f GFLOP/s; a 1024² matmul's rate: %.0f GFLOP/s" % (
                floor_flops(*NETS[row]) / 1e6, floor_flops(*NETS[row]) / min(f) / 1e9,
                2 * 1024 ** 3 / min(wall[row, "eagerflow matmul 1024²"]) / 1e9))
        if e and f:
            print("  eagerflow eager over the GEMM floor (the most a function can gain): %.2fx (min), %.2fx (median)" % (
                min(e) / min(f), np.median(e) / np.median(f)))
        e, f = wall.get((row, "tensorflow eager")), wall.get((row, "tensorflow function"))
        if e and f:
            print("  tensorflow function gain over eager: %.2fx (min), %.2fx (median)" % (
                min(e) / min(f), np.median(e) / np.median(f)))


if __name__ == "__main__":
    main()
