"""The Python layers hold: the import contracts of pyproject.toml ([tool.importlinter]) are kept by
the eagerflow these tests import (python/ in a checkout, site-packages once installed)."""
import os
import pathlib
import re
import subprocess
import sys

import grimp

import eagerflow

PYPROJECT = pathlib.Path(__file__).resolve().parent.parent / "pyproject.toml"
# Modules above every layer (the package's own entry points), free to import the package itself.
TOP = {"eagerflow", "eagerflow.__main__", "eagerflow._tour"}
# The layers' modules, as pyproject.toml names them (read without tomllib: Python 3.9 has none).
_LAYERS_TEXT = re.search(r'id = "layers".*?\nlayers = \[(.*?)\]', PYPROJECT.read_text(), re.S).group(1)
LAYERS = [m.strip() for layer in re.findall(r'"([^"]+)"', _LAYERS_TEXT) for m in layer.split("|")]


def _lint_imports(package_parent, cwd):
    # In a subprocess: import-linter reconfigures logging (disabling the 'tensorflow' logger).
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                           "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))",
                           str(PYPROJECT)], cwd=cwd, env=env, capture_output=True, text=True)


def test_import_contracts_are_kept(tmp_path):
    proc = _lint_imports(pathlib.Path(eagerflow.__file__).parent.parent, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_only_the_core_extension_is_imported_from_the_package_root():
    # The contracts ignore imports of `eagerflow` itself: grimp reads `from eagerflow import _core`
    # (a C++ extension it cannot see) as one. Every other import of the root would hide a cycle.
    graph = grimp.build_graph("eagerflow", include_external_packages=False, cache_dir=None)
    bad = [f"{m}:{d['line_number']}: {d['line_contents']}"
           for m in sorted(graph.find_modules_that_directly_import("eagerflow")) if m not in TOP
           for d in graph.get_import_details(importer=m, imported="eagerflow")
           if d["line_contents"] != "from eagerflow import _core"]
    assert not bad, "\n".join(bad)


def test_a_broken_contract_is_reported(tmp_path):
    # The same contracts over a stand-in package whose framework imports tf.function: reported.
    pkg = tmp_path / "eagerflow"
    for sub in LAYERS:
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "framework" / "bad.py").write_text("from eagerflow import _core\nfrom eagerflow.function import trace\n")
    (pkg / "function" / "trace.py").write_text("")
    (pkg / "autograph" / "_ag.py").write_text("")
    (pkg / "autograph" / "_impl").mkdir()
    (pkg / "autograph" / "_impl" / "__init__.py").write_text("")
    (pkg / "autograph" / "_impl" / "conversion.py").write_text("from eagerflow.autograph import _ag\n")
    proc = _lint_imports(tmp_path, tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "eagerflow.framework is not allowed to import eagerflow.function" in proc.stdout
