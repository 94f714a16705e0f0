"""tape_overhead.py's forward, forward + gradient and SGD step in two checkouts at once: one worker process
per checkout (its own python/ on the path), asked in alternating rounds, so both see the same machine
load. Prints the min and median over rounds of process CPU µs per call.

    python benchmarks/tape_overhead_ab.py BEFORE_CHECKOUT AFTER_CHECKOUT [ROUNDS=21]
"""
import os
import statistics
import sys
import time

import ab_workers

NAMES = ("forward", "gradient", "step")


def worker():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tape_overhead as T
    fns = {"forward": T.forward, "gradient": T.gradient, "step": T.step}
    for f in fns.values():
        for _ in range(30):
            f()
    for line in sys.stdin:
        name, n = line.split()
        f, n = fns[name], int(n)
        c = time.process_time()
        for _ in range(n):
            f()
        print((time.process_time() - c) / n * 1e6, flush=True)


def main(checkouts):
    procs = ab_workers.start(__file__, checkouts)
    times = {(n, c): [] for n in NAMES for c in checkouts}
    for _ in range(int(os.environ.get("ROUNDS", "21"))):
        for name in NAMES:
            for c, p in zip(checkouts, procs):
                times[name, c].append(ab_workers.ask(p, f"{name} 100")[0])
    ab_workers.stop(procs)
    print("load average %.1f %.1f %.1f" % os.getloadavg())
    for name in NAMES:
        print("%-9s" % name + "".join("  %s: min %6.1f µs  median %6.1f µs" % (
            c, min(times[name, c]), statistics.median(times[name, c])) for c in checkouts))


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main(sys.argv[1:])
