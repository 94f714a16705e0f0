"""How to thread a square float32 GEMM: the ways compared on the OpenBLAS eagerflow links (scipy-openblas32),
called through ctypes so that no rebuild is needed, with NumPy's own product alongside.

    python benchmarks/gemm_threading.py [256 1000 2000]

Columns (best of 5 interleaved rounds, wall time per product):
  numpy     a @ b (NumPy's OpenBLAS, threaded by itself)
  blas_2thr one sgemm with OpenBLAS's own 2 threads
  blas_1thr one sgemm on one thread
  split2    eagerflow's way: OpenBLAS at one thread, the rows split in 2 blocks over 2 threads
  split8    the rows in 8 blocks taken from a shared counter by 2 threads
"""
import ctypes
import os
import queue
import sys
import threading
import time

import numpy as np
import scipy_openblas32

_lib = ctypes.CDLL(os.path.join(scipy_openblas32.get_lib_dir(), "libscipy_openblas.so"))
_sgemm = _lib.scipy_cblas_sgemm
_P = ctypes.c_void_p
_sgemm.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, _P, ctypes.c_int, _P, ctypes.c_int, ctypes.c_float, _P,
                                        ctypes.c_int]


def _rows(a, b, c, m0, m1):
    k, n = a.shape[1], b.shape[1]
    _sgemm(101, 111, 111, m1 - m0, n, k, 1.0, a.ctypes.data + m0 * k * 4, k, b.ctypes.data, n, 0.0,
           c.ctypes.data + m0 * n * 4, n)


class _Worker:
    def __init__(self):
        self.jobs = queue.Queue()
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self):
        while True:
            fn, done = self.jobs.get()
            fn()
            done.set()


def _split(worker, a, b, c, pieces):
    m = a.shape[0]
    cuts = [m * i // pieces for i in range(pieces + 1)]
    nxt, lock = [0], threading.Lock()

    def work():
        while True:
            with lock:
                i = nxt[0]
                nxt[0] += 1
            if i >= pieces:
                return
            _rows(a, b, c, cuts[i], cuts[i + 1])
    done = threading.Event()
    worker.jobs.put((work, done))
    work()
    done.wait()


def main(sizes):
    worker = _Worker()
    print("load average %.1f" % os.getloadavg()[0])
    for n in sizes:
        rng = np.random.default_rng(0)
        a, b = rng.standard_normal((n, n), dtype=np.float32), rng.standard_normal((n, n), dtype=np.float32)
        c = np.empty((n, n), np.float32)

        def threads(k):
            _lib.scipy_openblas_set_num_threads(k)
        ways = {"numpy": lambda: a @ b,
                "blas_2thr": lambda: (threads(2), _rows(a, b, c, 0, n)),
                "blas_1thr": lambda: (threads(1), _rows(a, b, c, 0, n)),
                "split2": lambda: (threads(1), _split(worker, a, b, c, 2)),
                "split8": lambda: (threads(1), _split(worker, a, b, c, 8))}
        best = dict.fromkeys(ways, float("inf"))
        reps = max(3, int(2e9 / (2 * n ** 3)))
        for _ in range(5):
            for name, fn in ways.items():
                fn()
                t = time.perf_counter()
                for _ in range(reps):
                    fn()
                best[name] = min(best[name], (time.perf_counter() - t) / reps)
        np.testing.assert_allclose(c, a @ b, rtol=1e-3, atol=1e-3 * n)
        print("%d²: " % n + ", ".join("%s %.3g ms" % (k, v * 1e3) for k, v in best.items()))


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [256, 1000, 2000])
