"""The project's own text files hold no leftover merge-conflict markers (a merge that git could not
finish, committed as is, would still build when the markers sit in docs or comments)."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ("cpp", "python", "tests", "docs", "benchmarks", "notebooks", "cmake", ".ci")
SUFFIXES = (".py", ".md", ".cc", ".h", ".cu", ".txt", ".toml", ".cmake", ".sh", ".ipynb", ".cfg", ".ini")
MARKERS = ("<<<<<<< ", ">>>>>>> ", "<<<<<<<\n", ">>>>>>>\n")


def _files():
    for d in DIRS:
        for base, dirs, names in os.walk(os.path.join(ROOT, d)):
            dirs[:] = [x for x in dirs if not x.startswith((".", "__pycache__")) and x != "build"]
            for n in names:
                if n.endswith(SUFFIXES) or n in ("run", "CMakeLists.txt"):
                    yield os.path.join(base, n)
    for n in ("README.md", "CMakeLists.txt", "pyproject.toml", "dev-build.sh"):
        if os.path.exists(os.path.join(ROOT, n)):
            yield os.path.join(ROOT, n)


def test_some_files_are_checked():
    if not os.path.isdir(os.path.join(ROOT, "cpp")):
        pytest.skip("an installed copy of the tests, without the sources")
    assert sum(1 for _ in _files()) > 100


def test_no_merge_conflict_markers():
    found = []
    for path in _files():
        with open(path, encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(f, 1):
                if line.startswith(MARKERS):
                    found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), i, line.rstrip()))
    assert not found, "merge-conflict markers:\n" + "\n".join(found)
