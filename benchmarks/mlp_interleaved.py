"""The MLP and dense-net SGD steps of side_by_side.py (same code), eagerflow, NumPy and TensorFlow (when
importable) in one process, in interleaved rounds so every variant sees the same machine load.
Prints the min over rounds of wall time and of process CPU time per step (all threads).

    PYTHONPATH=python /tmp/tf/bin/python benchmarks/mlp_interleaved.py [ROUNDS=7] [ROWS=MLP,dense]
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
        out.append((row, "numpy", sbs._numpy_rows(np)[row]()))
    return out


def main():
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
        e, f = wall.get((row, "tensorflow eager")), wall.get((row, "tensorflow function"))
        if e and f:
            print("  tensorflow function gain over eager: %.2fx (min), %.2fx (median)" % (
                min(e) / min(f), np.median(e) / np.median(f)))


if __name__ == "__main__":
    main()
