"""Executes every notebook in notebooks/ top to bottom (code cells in one namespace, no Jupyter)."""
import contextlib
import io
import json
import linecache
import re
import os

import pytest

NB_DIR = os.path.join(os.path.dirname(__file__), os.pardir, "notebooks")
NOTEBOOKS = sorted(f for f in os.listdir(NB_DIR) if f.endswith(".ipynb")) if os.path.isdir(NB_DIR) else []


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name):
    assert _run_notebook(name)  # every notebook shows something


def _run_notebook(name):
    """Runs the notebook's code cells in one namespace; returns what they printed."""
    nb = json.load(open(os.path.join(NB_DIR, name), encoding="utf-8"))
    ns = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            filename = f"<{name} cell {i}>"
            # As IPython does: the cell's source is findable (inspect, AutoGraph, tracebacks).
            linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
            exec(compile(src, filename, "exec"), ns)
    return out.getvalue()


def test_tf_function_notebook_shows_the_graph_model():
    text = _run_notebook("02_tf_function_autograph_gradients.ipynb")
    assert text.count("Traced with") == 3  # int32, float32, then the [None] float32 ConcreteFunction
    assert "traces: 2" in text
    assert "tf.Tensor(111, shape=(), dtype=int32) tf.Tensor(118, shape=(), dtype=int32)" in text
    assert "def tf__collatz(n):" in text
    assert "w = 2.0000" in text


def test_keras_notebook_shows_summaries_and_training():
    text = _run_notebook("03_keras_models.ipynb")
    assert 'Model: "small_cnn"' in text and " image (InputLayer)          [(None, 28, 28, 1)]       0" in text
    assert "Total params: 2650 (10.35 KB)" in text
    assert re.search(r"\['(conv2d\w*)/kernel:0', '\1/bias:0', '(conv2d_\d+)/kernel:0', '\2/bias:0'\]", text)
    assert "Epoch 3/3" in text and "12/12 [==============================]" in text
    assert "64 steps; first" in text
    assert "saved loss_history.png" in text  # matplotlib comes with the test extras
