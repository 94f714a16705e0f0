"""Executes every notebook in notebooks/ top to bottom (code cells in one namespace, no Jupyter)."""
import contextlib
import io
import json
import os

import pytest

NB_DIR = os.path.join(os.path.dirname(__file__), os.pardir, "notebooks")
NOTEBOOKS = sorted(f for f in os.listdir(NB_DIR) if f.endswith(".ipynb")) if os.path.isdir(NB_DIR) else []


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name):
    nb = json.load(open(os.path.join(NB_DIR, name), encoding="utf-8"))
    ns = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            exec(compile(src, f"{name}[cell {i}]", "exec"), ns)
    assert out.getvalue()  # every notebook shows something
