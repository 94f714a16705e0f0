"""The dense net's SGD step of side_by_side.py as tf.function with the remapping pass on and off
(_FusedMatMul, ResourceApplyGradientDescent; off also turns elementwise fusion off) and eagerly, in
interleaved rounds in one process: min and median of wall and process CPU time per step.

    PYTHONPATH=python python benchmarks/dense_remap_interleaved.py [R=6]
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import side_by_side as sbs  # noqa: E402

import eagerflow as tf  # noqa: E402
from eagerflow.config import _optimizer_options as opt  # noqa: E402

fs = {}
for on in (True, False):
    opt._options.clear(); tf.config.optimizer.set_experimental_options({"remapping": on})
    f = sbs._tf_rows(tf, np)[sbs.DENSE_ROW + " (function)"]()
    for _ in range(3): f()   # traced under this setting
    fs["remapping on" if on else "remapping off"] = f
fs["eager"] = sbs._tf_rows(tf, np)[sbs.DENSE_ROW]()
res = {k: [] for k in fs}
for r in range(int(os.environ.get("R", "6"))):
    for k, f in fs.items():
        t, c = time.perf_counter(), time.process_time()
        for _ in range(15): f()
        res[k].append(((time.perf_counter() - t) / 15 * 1e3, (time.process_time() - c) / 15 * 1e3))
print("load %.1f %.1f %.1f" % os.getloadavg())
for k, v in res.items():
    v = np.array(v)
    print("%-14s wall min %.2f med %.2f   cpu min %.2f med %.2f" % (k, v[:, 0].min(), np.median(v[:, 0]), v[:, 1].min(), np.median(v[:, 1])))
