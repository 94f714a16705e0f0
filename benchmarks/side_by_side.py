"""Side-by-side driver: the same workloads under each installed framework, each in its own process,
back to back, written as one Markdown table (ratio to the best peer per row) and a bar chart.

    python benchmarks/side_by_side.py [--out docs/performance.md] [--img docs/img/side_by_side.png]
                                      [--rows matmul,reduce] [--repeat 7] [--max-isa avx2] [--runs 4]

Frameworks and the Python that runs each (each optional; a missing one is a blank column):
eagerflow (the working tree's python/, a dev build) and NumPy in this Python; TensorFlow in
EAGERFLOW_TF_PYTHON (else /tmp/tf/bin/python); JAX in EAGERFLOW_JAX_PYTHON; PyTorch in
EAGERFLOW_TORCH_PYTHON (each else this Python if it imports). EAGERFLOW_RELEASE_PYTHON names a Python
whose installed eagerflow (`pip install .`: the portable release build) runs the eagerflow rows again,
as the column "eagerflow (release)"; the ratio to the best peer stays the dev build's.
A worker prints one JSON object: row -> best seconds per call (min over repeats). --runs N repeats
the whole run N times back to back (this kind of machine moves by 1.5x from one minute to the next):
the table takes each framework's minimum per row and shows eagerflow's ratio in each run beside it.

--max-isa avx2 runs every framework as on a CPU without AVX-512 (the AVX2 machines of this kind),
through each library's own switch (MAX_ISA_ENV; eagerflow's per-ISA copies and direct convolutions
by name). A dev build (-march=native) has no such switch and drops out: the release column is
then the one compared.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# The column of an installed release build (EAGERFLOW_RELEASE_PYTHON) beside the working tree's.
RELEASE = "eagerflow (release)"

# --max-isa avx2: each library's switch to its AVX2 code (OpenBLAS: NumPy's and eagerflow's GEMM;
# NumPy's own loops; oneDNN in TensorFlow and PyTorch; PyTorch's ATen and MKL; XLA in JAX).
MAX_ISA_ENV = {"avx2": {
    "OPENBLAS_CORETYPE": "Haswell", "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
    "ONEDNN_MAX_CPU_ISA": "AVX2", "DNNL_MAX_CPU_ISA": "AVX2", "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2", "XLA_FLAGS": "--xla_cpu_max_isa=AVX2",
}}

DENSE = (784, 1024, 512, 256, 10)  # the dense net's layer widths (ReLU between, softmax cross-entropy)
DENSE_ROW = "dense 784-1024-512-256-10 SGD step, batch 100"

# (row, framework) -> a function of the framework module returning a zero-argument callable.
# eagerflow and TensorFlow share the `tf` code; "function" rows wrap the step in tf.function /
# jax.jit. PyTorch and NumPy run eagerly: they fill the eager rows, and the conv row (which has no
# eager row) gets PyTorch's eager step.


def _tf_rows(tf, np):
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s, dtype=np.float32)  # noqa: E731
    rows = {}

    def mm(n):
        a, b = tf.constant(f32(n, n)), tf.constant(f32(n, n))
        return lambda: tf.matmul(a, b)
    for n in (256, 1000, 2000):
        rows["matmul %d²" % n] = lambda n=n: mm(n)

    def bmm():
        a, b = tf.constant(f32(32, 128, 128)), tf.constant(f32(32, 128, 128))
        return lambda: tf.matmul(a, b)
    rows["batched matmul 32×128×128"] = bmm
    rows["reduce_sum 1e7"] = lambda: (lambda x: lambda: tf.reduce_sum(x))(tf.constant(f32(10_000_000)))
    rows["reduce_mean axis=1 1000²"] = lambda: (lambda x: lambda: tf.reduce_mean(x, axis=1))(tf.constant(f32(1000, 1000)))
    rows["argmax axis=1 1000²"] = lambda: (lambda x: lambda: tf.argmax(x, 1))(tf.constant(f32(1000, 1000)))

    def chain(x):
        y = tf.exp(-tf.abs(x))
        y = tf.sqrt(y + 1.0) * 0.5 - tf.tanh(x)
        y = tf.maximum(y, 0.1) / (tf.square(x) + 1.0)
        return tf.sigmoid(y)
    rows["10 elementwise ops 1e6"] = lambda: (lambda x: lambda: chain(x))(tf.constant(f32(1_000_000)))
    rows["10 elementwise ops 1e6 (function)"] = lambda: (lambda x, g: lambda: g(x))(
        tf.constant(f32(1_000_000)), tf.function(chain))
    rows["add 1e7"] = lambda: (lambda a, b: lambda: tf.add(a, b))(tf.constant(f32(10_000_000)), tf.constant(f32(10_000_000)))
    rows["int32 add 1e6"] = lambda: (lambda a: lambda: tf.add(a, a))(tf.constant(np.arange(1_000_000, dtype=np.int32)))
    rows["concat 100×[10]"] = lambda: (lambda xs: lambda: tf.concat(xs, 0))([tf.constant(f32(10)) for _ in range(100)])
    rows["concat 10×(100×100) axis 1"] = lambda: (lambda xs: lambda: tf.concat(xs, 1))(
        [tf.constant(f32(100, 100)) for _ in range(10)])
    rows["gather 1e5 of 1e6"] = lambda: (lambda p, i: lambda: tf.gather(p, i))(
        tf.constant(f32(1_000_000)), tf.constant(rng.integers(0, 1_000_000, 100_000)))

    def call_overhead(structured):
        f = tf.function(lambda s: s["x"]["a"] if structured else s)
        c = [tf.constant([float(i)]) for i in range(4)]
        arg = {"x": {"a": c[0], "b": c[1]}, "y": [c[2], c[3]]} if structured else c[0]
        f(arg)
        return lambda: f(arg)
    rows["function call, 1 tensor"] = lambda: call_overhead(False)
    rows["function call, dict of 4 tensors"] = lambda: call_overhead(True)

    def mlp(compiled):
        w1 = tf.Variable(f32(784, 256) * 0.05)
        b1 = tf.Variable(np.zeros(256, np.float32))
        w2 = tf.Variable(f32(256, 10) * 0.05)
        b2 = tf.Variable(np.zeros(10, np.float32))
        x = tf.constant(f32(128, 784))
        y = tf.constant(rng.integers(0, 10, 128))
        vs = [w1, b1, w2, b2]

        def step():
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(x, w1) + b1)
                logits = tf.matmul(h, w2) + b2
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
            for v, g in zip(vs, tape.gradient(loss, vs)):
                v.assign_sub(0.01 * g)
            return loss
        return tf.function(step) if compiled else step
    rows["MLP 784-256-10 SGD step, batch 128"] = lambda: mlp(False)
    rows["MLP 784-256-10 SGD step, batch 128 (function)"] = lambda: mlp(True)

    def dense(compiled):
        ws = [tf.Variable(f32(m, n) * np.float32(np.sqrt(2 / m))) for m, n in zip(DENSE[:-1], DENSE[1:])]
        bs = [tf.Variable(np.zeros(n, np.float32)) for n in DENSE[1:]]
        x = tf.constant(f32(100, DENSE[0]))
        y = tf.constant(rng.integers(0, DENSE[-1], 100))
        vs = ws + bs

        def step():
            with tf.GradientTape() as tape:
                h = x
                for i, (w, b) in enumerate(zip(ws, bs)):
                    h = tf.matmul(h, w) + b
                    if i < len(ws) - 1:
                        h = tf.nn.relu(h)
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, h))
            for v, g in zip(vs, tape.gradient(loss, vs)):
                v.assign_sub(0.01 * g)
            return loss
        return tf.function(step) if compiled else step
    rows[DENSE_ROW] = lambda: dense(False)
    rows[DENSE_ROW + " (function)"] = lambda: dense(True)

    def while_scalar():
        f = tf.function(lambda n: tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))[1])
        n = tf.constant(100_000)
        f(n)
        return lambda: f(n)
    rows["while_loop 1e5 scalar iterations (function)"] = while_scalar

    def conv():
        x = tf.constant(f32(32, 28, 28, 64))
        k = tf.Variable(f32(3, 3, 64, 64) * 0.05)

        def step():
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.nn.conv2d(x, k, 1, "SAME"))
            return tape.gradient(y, k)
        return tf.function(step)
    rows["conv2d 3×3 64→64 fwd+bwd, 32×28×28 (function)"] = conv
    return rows


def _numpy_rows(np):
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s, dtype=np.float32)  # noqa: E731
    rows = {}
    for n in (256, 1000, 2000):
        rows["matmul %d²" % n] = lambda n=n: (lambda a, b: lambda: a @ b)(f32(n, n), f32(n, n))
    rows["batched matmul 32×128×128"] = lambda: (lambda a, b: lambda: a @ b)(f32(32, 128, 128), f32(32, 128, 128))
    rows["reduce_sum 1e7"] = lambda: (lambda x: lambda: x.sum())(f32(10_000_000))
    rows["reduce_mean axis=1 1000²"] = lambda: (lambda x: lambda: x.mean(axis=1))(f32(1000, 1000))
    rows["argmax axis=1 1000²"] = lambda: (lambda x: lambda: x.argmax(1))(f32(1000, 1000))

    def chain(x):
        y = np.exp(-np.abs(x))
        y = np.sqrt(y + 1.0) * 0.5 - np.tanh(x)
        y = np.maximum(y, 0.1) / (np.square(x) + 1.0)
        return 1 / (1 + np.exp(-y))
    rows["10 elementwise ops 1e6"] = lambda: (lambda x: lambda: chain(x))(f32(1_000_000))
    rows["add 1e7"] = lambda: (lambda a, b: lambda: np.add(a, b))(f32(10_000_000), f32(10_000_000))
    rows["int32 add 1e6"] = lambda: (lambda a: lambda: np.add(a, a))(np.arange(1_000_000, dtype=np.int32))
    rows["concat 100×[10]"] = lambda: (lambda xs: lambda: np.concatenate(xs, 0))([f32(10) for _ in range(100)])
    rows["concat 10×(100×100) axis 1"] = lambda: (lambda xs: lambda: np.concatenate(xs, 1))(
        [f32(100, 100) for _ in range(10)])
    rows["gather 1e5 of 1e6"] = lambda: (lambda p, i: lambda: p[i])(f32(1_000_000), rng.integers(0, 1_000_000, 100_000))

    def mlp():
        w1, b1 = f32(784, 256) * 0.05, np.zeros(256, np.float32)
        w2, b2 = f32(256, 10) * 0.05, np.zeros(10, np.float32)
        x, y = f32(128, 784), rng.integers(0, 10, 128)

        def step():
            h = np.maximum(x @ w1 + b1, 0)
            z = h @ w2 + b2
            z = z - z.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            p[np.arange(128), y] -= 1
            dz = p / 128
            dh = (dz @ w2.T) * (h > 0)
            for v, g in ((w2, h.T @ dz), (b2, dz.sum(0)), (w1, x.T @ dh), (b1, dh.sum(0))):
                np.subtract(v, 0.01 * g, out=v)
        return step
    rows["MLP 784-256-10 SGD step, batch 128"] = mlp

    def dense():
        ws = [f32(m, n) * np.float32(np.sqrt(2 / m)) for m, n in zip(DENSE[:-1], DENSE[1:])]
        bs = [np.zeros(n, np.float32) for n in DENSE[1:]]
        x, y = f32(100, DENSE[0]), rng.integers(0, DENSE[-1], 100)

        def step():
            hs = [x]
            for i, (w, b) in enumerate(zip(ws, bs)):
                z = hs[-1] @ w + b
                hs.append(np.maximum(z, 0) if i < len(ws) - 1 else z)
            z = hs[-1] - hs[-1].max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            p[np.arange(100), y] -= 1
            dz = p / 100
            for i in range(len(ws) - 1, -1, -1):
                gw, gb = hs[i].T @ dz, dz.sum(0)
                if i:
                    dz = (dz @ ws[i].T) * (hs[i] > 0)
                np.subtract(ws[i], 0.01 * gw, out=ws[i])
                np.subtract(bs[i], 0.01 * gb, out=bs[i])
        return step
    rows[DENSE_ROW] = dense
    return rows


def _jax_rows(jax, np):
    jnp = jax.numpy
    rng = np.random.default_rng(0)
    f32 = lambda *s: jnp.asarray(rng.standard_normal(s, dtype=np.float32))  # noqa: E731
    rows = {}

    def timed(f, *args):
        g = jax.jit(f)
        g(*args).block_until_ready()
        return lambda: g(*args).block_until_ready()
    for n in (256, 1000, 2000):
        rows["matmul %d²" % n] = lambda n=n: timed(jnp.matmul, f32(n, n), f32(n, n))
    rows["batched matmul 32×128×128"] = lambda: timed(jnp.matmul, f32(32, 128, 128), f32(32, 128, 128))
    rows["reduce_sum 1e7"] = lambda: timed(jnp.sum, f32(10_000_000))
    rows["reduce_mean axis=1 1000²"] = lambda: timed(lambda x: x.mean(axis=1), f32(1000, 1000))
    rows["argmax axis=1 1000²"] = lambda: timed(lambda x: x.argmax(1), f32(1000, 1000))

    def chain(x):
        y = jnp.exp(-jnp.abs(x))
        y = jnp.sqrt(y + 1.0) * 0.5 - jnp.tanh(x)
        y = jnp.maximum(y, 0.1) / (jnp.square(x) + 1.0)
        return jax.nn.sigmoid(y)
    rows["10 elementwise ops 1e6 (function)"] = lambda: timed(chain, f32(1_000_000))
    rows["add 1e7"] = lambda: timed(jnp.add, f32(10_000_000), f32(10_000_000))
    rows["int32 add 1e6"] = lambda: timed(lambda a: a + a, jnp.arange(1_000_000, dtype=jnp.int32))

    def call_overhead(structured):
        c = [f32(1) for _ in range(4)]
        arg = {"x": {"a": c[0], "b": c[1]}, "y": [c[2], c[3]]} if structured else c[0]
        return timed(lambda s: s["x"]["a"] if structured else s, arg)
    rows["function call, 1 tensor"] = lambda: call_overhead(False)
    rows["function call, dict of 4 tensors"] = lambda: call_overhead(True)

    def sgd(loss, params):
        """One jitted SGD step (lr 0.01) of `loss` over the parameter list, as a timed callable."""
        @jax.jit
        def step(p):
            g = jax.grad(loss)(p)
            return [a - 0.01 * b for a, b in zip(p, g)]
        state = [params]
        step(params)[0].block_until_ready()

        def run():
            state[0] = step(state[0])
            state[0][0].block_until_ready()
        return run

    def mlp():
        params = [f32(784, 256) * 0.05, jnp.zeros(256), f32(256, 10) * 0.05, jnp.zeros(10)]
        x, y = f32(128, 784), jnp.asarray(rng.integers(0, 10, 128))

        def loss(p):
            h = jax.nn.relu(x @ p[0] + p[1])
            z = h @ p[2] + p[3]
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(z), y[:, None], 1))
        return sgd(loss, params)
    rows["MLP 784-256-10 SGD step, batch 128 (function)"] = mlp

    def dense():
        params = ([f32(m, n) * np.float32(np.sqrt(2 / m)) for m, n in zip(DENSE[:-1], DENSE[1:])] +
                  [jnp.zeros(n) for n in DENSE[1:]])
        x, y = f32(100, DENSE[0]), jnp.asarray(rng.integers(0, DENSE[-1], 100))
        k = len(DENSE) - 1

        def loss(p):
            h = x
            for i in range(k):
                h = h @ p[i] + p[k + i]
                if i < k - 1:
                    h = jax.nn.relu(h)
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(h), y[:, None], 1))
        return sgd(loss, params)
    rows[DENSE_ROW + " (function)"] = dense

    def while_scalar():
        f = jax.jit(lambda n: jax.lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + c[0]), (0, 0))[1])
        f(100_000).block_until_ready()
        return lambda: f(100_000).block_until_ready()
    rows["while_loop 1e5 scalar iterations (function)"] = while_scalar
    return rows


def _torch_rows(torch, np):
    rng = np.random.default_rng(0)
    f32 = lambda *s: torch.from_numpy(rng.standard_normal(s, dtype=np.float32))  # noqa: E731
    rows = {}
    for n in (256, 1000, 2000):
        rows["matmul %d²" % n] = lambda n=n: (lambda a, b: lambda: a @ b)(f32(n, n), f32(n, n))
    rows["batched matmul 32×128×128"] = lambda: (lambda a, b: lambda: a @ b)(f32(32, 128, 128), f32(32, 128, 128))
    rows["reduce_sum 1e7"] = lambda: (lambda x: lambda: x.sum())(f32(10_000_000))
    rows["reduce_mean axis=1 1000²"] = lambda: (lambda x: lambda: x.mean(1))(f32(1000, 1000))
    rows["argmax axis=1 1000²"] = lambda: (lambda x: lambda: x.argmax(1))(f32(1000, 1000))
    rows["add 1e7"] = lambda: (lambda a, b: lambda: a + b)(f32(10_000_000), f32(10_000_000))
    rows["int32 add 1e6"] = lambda: (lambda a: lambda: a + a)(torch.arange(1_000_000, dtype=torch.int32))
    rows["concat 100×[10]"] = lambda: (lambda xs: lambda: torch.cat(xs, 0))([f32(10) for _ in range(100)])
    rows["concat 10×(100×100) axis 1"] = lambda: (lambda xs: lambda: torch.cat(xs, 1))([f32(100, 100) for _ in range(10)])
    rows["gather 1e5 of 1e6"] = lambda: (lambda p, i: lambda: p[i])(f32(1_000_000), torch.from_numpy(rng.integers(0, 1_000_000, 100_000)))

    def chain(x):
        y = torch.exp(-torch.abs(x))
        y = torch.sqrt(y + 1.0) * 0.5 - torch.tanh(x)
        y = torch.maximum(y, torch.tensor(0.1)) / (torch.square(x) + 1.0)
        return torch.sigmoid(y)
    rows["10 elementwise ops 1e6"] = lambda: (lambda x: lambda: chain(x))(f32(1_000_000))
    F = torch.nn.functional

    def train(widths, batch, scale):
        # PyTorch eager with autograd: the same layers, loss and SGD update as the tf rows.
        ws = [(f32(m, n) * scale(m)).requires_grad_() for m, n in zip(widths[:-1], widths[1:])]
        bs = [torch.zeros(n, requires_grad=True) for n in widths[1:]]
        x, y = f32(batch, widths[0]), torch.from_numpy(rng.integers(0, widths[-1], batch))

        def step():
            h = x
            for i, (w, b) in enumerate(zip(ws, bs)):
                h = h @ w + b
                if i < len(ws) - 1:
                    h = torch.relu(h)
            loss = F.cross_entropy(h, y)
            grads = torch.autograd.grad(loss, ws + bs)
            with torch.no_grad():
                for v, g in zip(ws + bs, grads):
                    v.sub_(0.01 * g)
            return loss
        return step
    rows["MLP 784-256-10 SGD step, batch 128"] = lambda: train((784, 256, 10), 128, lambda m: 0.05)
    rows[DENSE_ROW] = lambda: train(DENSE, 100, lambda m: float(np.sqrt(2 / m)))

    def conv():
        x = f32(32, 64, 28, 28)  # NCHW, PyTorch's layout
        k = (f32(64, 64, 3, 3) * 0.05).requires_grad_()
        return lambda: torch.autograd.grad(F.conv2d(x, k, padding=1).sum(), k)
    # Eager: PyTorch has no compiled variant here (the row's other frameworks run it as a function).
    rows["conv2d 3×3 64→64 fwd+bwd, 32×28×28 (function)"] = conv
    return rows


def _measure(make, repeat, budget=0.3):
    fn = make()
    fn()
    t = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t, 1e-7)
    number = max(1, int(budget / repeat / once))
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t) / number)
    return best


def worker(framework, only, repeat, max_isa=""):
    import numpy as np
    if framework in ("eagerflow", RELEASE):
        import eagerflow as m
        if framework == RELEASE and os.path.abspath(m.__file__).startswith(os.path.join(ROOT, "python")):
            raise SystemExit("EAGERFLOW_RELEASE_PYTHON imports the working tree's eagerflow, not an installed one")
        if max_isa:
            try:
                m._core.set_elementwise_isa(max_isa)
                m._core.set_conv_kernel(max_isa)
            except m.errors.InvalidArgumentError as e:
                raise SystemExit("no %s variant (a -march=native build?): %s" % (max_isa, e.message))
        rows = _tf_rows(m, np)
    elif framework == "tensorflow":
        import tensorflow as m
        rows = _tf_rows(m, np)
    elif framework == "numpy":
        rows = _numpy_rows(np)
    elif framework == "jax":
        import jax
        jax.config.update("jax_platforms", "cpu")
        rows = _jax_rows(jax, np)
    else:
        import torch
        rows = _torch_rows(torch, np)
    out = {}
    for name, make in rows.items():
        if only and not any(o in name for o in only):
            continue
        try:
            out[name] = _measure(make, repeat)
        except Exception as e:  # noqa: BLE001 - a row a framework lacks is left blank
            out[name] = None
            print("%s: %s: %s" % (framework, name, e), file=sys.stderr)
    print(json.dumps(out))


def _interpreters():
    me = sys.executable
    return {
        "eagerflow": me,
        RELEASE: os.environ.get("EAGERFLOW_RELEASE_PYTHON") or "",
        "numpy": me,
        "tensorflow": os.environ.get("EAGERFLOW_TF_PYTHON") or "/tmp/tf/bin/python",
        "jax": os.environ.get("EAGERFLOW_JAX_PYTHON") or me,
        "torch": os.environ.get("EAGERFLOW_TORCH_PYTHON") or me,
    }


def _machine():
    model, flags = platform.processor(), ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    have = set(line.split(":", 1)[1].split())
                    flags = " ".join(f for f in ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "amx_tile")
                                     if f in have)
                    break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return "%s, %d cores, ISA: %s, load average %.1f" % (model, os.cpu_count(), flags or "?", load)


def _fmt(t):
    if t is None:
        return ""
    for unit, scale in (("s", 1), ("ms", 1e3), ("µs", 1e6), ("ns", 1e9)):
        if t * scale >= 1:
            return "%.3g %s" % (t * scale, unit)
    return "%.3g ns" % (t * 1e9)


def _ratio(r):
    return "" if not r else "%.2f" % r if r >= 0.1 else "%.2g" % r


def table(results, frameworks, per_run=()):
    """The Markdown table and {row: eagerflow ÷ best peer}; per_run: each run's ratios, as a column."""
    rows = []
    for fw in frameworks:
        for r in results.get(fw, {}):
            if r not in rows:
                rows.append(r)
    release = RELEASE in frameworks and "eagerflow" in frameworks
    names = ["eagerflow (dev)" if fw == "eagerflow" and release else fw for fw in frameworks]
    ours = "eagerflow (dev)" if release else RELEASE if RELEASE in frameworks else "eagerflow"
    extra = [ours + " ÷ best peer"] + (["in each run"] if per_run else []) + (["release ÷ dev"] if release else [])
    lines = ["| row | " + " | ".join(names + extra) + " |", "|---|" + "---|" * (len(names) + len(extra))]
    ratios = {}
    for r in rows:
        vals = [results.get(fw, {}).get(r) for fw in frameworks]
        peers = [v for fw, v in zip(frameworks, vals) if fw not in ("eagerflow", RELEASE) and v]
        ef = results.get("eagerflow" if "eagerflow" in results else RELEASE, {}).get(r)
        ratio = ef / min(peers) if ef and peers else None
        ratios[r] = ratio
        cells = [_fmt(v) for v in vals] + [_ratio(ratio)]
        if per_run:
            cells.append(" / ".join(_ratio(p.get(r)) or "–" for p in per_run))
        if release:
            rel = results.get(RELEASE, {}).get(r)
            cells.append("%.2f" % (rel / ef) if rel and ef else "")
        lines.append("| %s | %s |" % (r, " | ".join(cells)))
    return "\n".join(lines), ratios


def chart(ratios, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    items = [(r, v) for r, v in ratios.items() if v]
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(items) + 1))
    ax.barh([r for r, _ in items], [v for _, v in items],
            color=["tab:green" if v <= 1.0 else "tab:red" for _, v in items])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ticks = [t for t in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5) if min(v for _, v in items) / 2 <= t <= max(v for _, v in items) * 2]
    ax.set_xticks(ticks, [("%g" % t) for t in ticks])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.invert_yaxis()
    ax.set_xlabel("eagerflow time ÷ best peer (< 1: eagerflow faster)")
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=100)


def run_all(a):
    """One run: each framework's worker in its own process, back to back. Returns {framework: {row:
    seconds}} and the frameworks in order."""
    results, frameworks = {}, []
    for fw, py in _interpreters().items():
        if not py or not os.path.exists(py):
            continue
        # The release worker imports its own installed eagerflow, never the working tree's.
        tree = [] if fw == RELEASE else [os.path.join(ROOT, "python")]
        path = os.pathsep.join(filter(None, tree + [os.environ.get("PYTHONPATH")]))
        limit = dict(MAX_ISA_ENV.get(a.max_isa, {}))
        if "XLA_FLAGS" in limit and os.environ.get("XLA_FLAGS"):
            limit["XLA_FLAGS"] = os.environ["XLA_FLAGS"] + " " + limit["XLA_FLAGS"]
        env = dict(os.environ, PYTHONPATH=path, **limit)
        if not path:
            del env["PYTHONPATH"]
        env.pop("LD_PRELOAD", None)
        proc = subprocess.run([py, os.path.abspath(__file__), "--worker", fw, "--rows", a.rows,
                               "--repeat", str(a.repeat), "--max-isa", a.max_isa],
                              capture_output=True, text=True, env=env)
        last = proc.stdout.strip().splitlines()[-1:] if proc.returncode == 0 else []
        if not last:
            print("%s: not measured (%s)" % (fw, (proc.stderr.strip().splitlines() or ["?"])[-1]), file=sys.stderr)
            continue
        results[fw] = json.loads(last[0])
        frameworks.append(fw)
    return results, frameworks


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--worker")
    p.add_argument("--rows", default="")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--out", help="append the table to this Markdown file")
    p.add_argument("--img", default=os.path.join(ROOT, "docs", "img", "side_by_side.png"))
    p.add_argument("--max-isa", default="", choices=["", *MAX_ISA_ENV])
    p.add_argument("--runs", type=int, default=1, help="whole runs back to back; the table takes each minimum")
    a = p.parse_args()
    only = [r for r in a.rows.split(",") if r]
    if a.worker:
        return worker(a.worker, only, a.repeat, a.max_isa)
    runs = [run_all(a) for _ in range(a.runs)]
    frameworks = [fw for fw in runs[0][1]]
    # Each framework's minimum over the runs; the ratio in each run beside it.
    results = {fw: {r: min(run[fw][r] for run, _ in runs if r in run.get(fw, {}))
                    for r in runs[0][0][fw]} for fw in frameworks}
    per_run = [table(r, f)[1] for r, f in runs] if a.runs > 1 else ()
    text, ratios = table(results, frameworks, per_run)
    machine = _machine()
    limit = "; every framework limited to %s (--max-isa)" % a.max_isa if a.max_isa else ""
    best = "the minimum over %d runs of the best of %d repeats" % (a.runs, a.repeat) if a.runs > 1 else \
        "the best of %d repeats" % a.repeat
    report = "Machine: %s%s. Times are %s per call.\n\n%s\n" % (machine, limit, best, text)
    print(report)
    if ratios and a.img:
        chart(ratios, a.img)
    if a.out:
        with open(a.out, "a") as f:
            f.write("\n" + report)


if __name__ == "__main__":
    main()
