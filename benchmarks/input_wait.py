"""The input wait of bench_data.py's training loop, with the load of other processes taken out.

On a shared machine the wall time of an epoch is mostly time the main thread spent runnable but
not running (other processes had the cores), which says nothing about the input. Linux's
/proc/thread-self/schedstat splits the main thread's wall time into on-CPU, runnable-waiting and
the rest, blocked (waiting for the prefetch thread or the intra-op pool). The input wait is then
(on-CPU + blocked of the epoch over the dataset − the same of the steps on in-memory batches) /
(on-CPU + blocked of the epoch over the dataset). The prefetch thread is still slowed by the load,
so the blocked time is an upper bound of what a quiet machine shows.

eagerflow runs a tf.function on the calling thread, so the main thread is the one doing the steps;
TensorFlow runs it on its own inter-op threads (its main thread is blocked throughout), so this
split does not apply to it: compare with TF through bench_data.py's wall times on a quiet machine.

Run: PYTHONPATH=python python benchmarks/input_wait.py [rounds]      (Linux only)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _schedstat():
    with open("/proc/thread-self/schedstat") as f:
        on_cpu, runnable, _ = f.read().split()
    return int(on_cpu) / 1e6, int(runnable) / 1e6


def main(rounds=7):
    import eagerflow as tf
    import bench_data as b

    epoch_pf, ds_pf, step = b._training(tf, True)
    epoch_np, ds_np, _ = b._training(tf, False)
    n = 60000 // 128
    xs = tf.constant(b.X[:n * 128].reshape(n, 128, 784))
    ys = tf.constant(b.Y[:n * 128].reshape(n, 128))

    @tf.function
    def in_memory():
        total = tf.constant(0.0)
        for i in tf.range(n):
            total += step(xs[i], ys[i])
        return total

    cases = {"prefetch": (epoch_pf, ds_pf), "no_prefetch": (epoch_np, ds_np), "in_memory": (in_memory,)}
    for fn, *args in cases.values():
        fn(*args)
    rows = {k: [] for k in cases}
    for _ in range(rounds):  # interleaved, so load changes hit every case alike
        for k, (fn, *args) in cases.items():
            t0, (c0, q0), p0 = time.perf_counter(), _schedstat(), time.process_time()
            fn(*args)
            c1, q1 = _schedstat()
            wall = (time.perf_counter() - t0) * 1e3
            rows[k].append((wall, c1 - c0, q1 - q0, wall - (c1 - c0) - (q1 - q0), (time.process_time() - p0) * 1e3))
    busy = {}
    print(f"eagerflow, median round by main-thread on-CPU + blocked (ms per epoch of 468 steps):")
    for k, v in rows.items():
        v.sort(key=lambda r: r[1] + r[3])
        wall, cpu, runnable, blocked, process = v[len(v) // 2]
        busy[k] = cpu + blocked
        print(f"  {k:12s} wall {wall:7.1f}  on-CPU {cpu:6.1f}  runnable {runnable:7.1f}  blocked {blocked:6.1f}"
              f"  on-CPU+blocked {cpu + blocked:6.1f}  process CPU {process:6.1f}")
    wait = (busy["prefetch"] - busy["in_memory"]) / busy["prefetch"]
    print(f"  input wait with prefetch: {wait * 100:.0f}%  (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
