"""The C++ core keeps its layers: tests/check_includes.py finds no include pointing up a layer."""
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "check_includes.py"


def _run(root):
    return subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)


@pytest.mark.skipif(not (ROOT / "cpp").is_dir(), reason="no C++ sources next to the tests (an installed package)")
def test_cpp_includes_follow_the_layers():
    proc = _run(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_check_includes_reports_upward_and_unknown_includes(tmp_path):
    _write(tmp_path / "cpp/core/tensor.h", "#pragma once\n")
    _write(tmp_path / "cpp/kernels/cpu/list.h", '#include "core/tensor.h"\n')
    _write(tmp_path / "cpp/kernels/cpu/list.cc", '#include "list.h"\n#include "kernels/cpu/list.h"\n')
    _write(tmp_path / "cpp/ops/list_ops.cc", '#include "core/tensor.h"\n#include "kernels/cpu/list.h"\n')
    _write(tmp_path / "cpp/graph/passes/fold.cc", '#include "kernels/cpu/list.h"\n#include "misc/util.h"\n')
    proc = _run(tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert "cpp/ops/list_ops.cc:2: ops -> kernels (kernels/cpu/list.h): kernels is above ops" in lines
    assert any(line.startswith("cpp/graph/passes/fold.cc:2: graph -> misc (misc/util.h): not in a layer") for line in lines)
    assert not any("kernels/cpu/list.cc" in line or "fold.cc:1" in line for line in lines)


def test_check_includes_accepts_a_layered_tree(tmp_path):
    _write(tmp_path / "cpp/core/tensor.h", "#pragma once\n")
    _write(tmp_path / "cpp/bindings/module.cc", '#include "core/tensor.h"\n')
    proc = _run(tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.startswith("OK")
