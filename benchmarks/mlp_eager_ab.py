"""side_by_side.py's eager MLP step (784-256-10, batch 128) in two checkouts at once: one worker process per
checkout (its own python/ on the path), asked in alternating rounds, so both see the same machine load.
Prints the min and median over rounds of process CPU and wall ms per step. THREADS sets the intra-op
threads (default 1: the step's own work, without the pool's waits).

    python benchmarks/mlp_eager_ab.py BEFORE_CHECKOUT AFTER_CHECKOUT [ROUNDS=21] [THREADS=1]
"""
import os
import statistics
import sys
import time

import ab_workers

ROW = "MLP 784-256-10 SGD step, batch 128"


def worker():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import numpy as np
    import side_by_side as sbs
    import eagerflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(int(os.environ.get("THREADS", "1")))
    step = sbs._tf_rows(tf, np)[ROW]()
    for _ in range(10):
        step()
    for line in sys.stdin:
        n = int(line)
        c, w = time.process_time(), time.perf_counter()
        for _ in range(n):
            step()
        print((time.process_time() - c) / n * 1e3, (time.perf_counter() - w) / n * 1e3, flush=True)


def main(checkouts):
    procs = ab_workers.start(__file__, checkouts)
    cpu = {c: [] for c in checkouts}
    wall = {c: [] for c in checkouts}
    for _ in range(int(os.environ.get("ROUNDS", "21"))):
        for c, p in zip(checkouts, procs):
            a, b = ab_workers.ask(p, "20")
            cpu[c].append(a)
            wall[c].append(b)
    ab_workers.stop(procs)
    print("load average %.1f %.1f %.1f, threads %s" % (os.getloadavg() + (os.environ.get("THREADS", "1"),)))
    for c in checkouts:
        print("%s: CPU min %.3f median %.3f ms   wall min %.3f median %.3f ms" % (
            c, min(cpu[c]), statistics.median(cpu[c]), min(wall[c]), statistics.median(wall[c])))


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main(sys.argv[1:])
