"""Checks the C++ layering: a file under cpp/ may include its own layer and the layers below it.

Usage: python tests/check_includes.py [REPO_ROOT]   (default: the parent of tests/)
Prints each include that points up a layer (or into a folder that is no layer) and exits 1;
exits 0 with a one-line summary when there is none. Standard library only.
"""
import pathlib
import re
import sys

# Bottom up. The layer of a file is its first folder under cpp/ (graph/passes is part of graph).
LAYERS = ("core", "ops", "kernels", "eager", "graph", "autodiff", "io", "bindings")
SUFFIXES = {".h", ".hpp", ".cc", ".cpp", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def _layer(cpp_dir, path):
    parts = path.relative_to(cpp_dir).parts
    return parts[0] if len(parts) > 1 else None


def _target(cpp_dir, source, name):
    """The file `name` means in `source`: next to the source when it is there, else under cpp/."""
    local = source.parent / name
    return local.resolve() if local.exists() else (cpp_dir / name).resolve()


def violations(cpp_dir):
    """Lists 'file:line: from -> to (include)' for every include that breaks the layering."""
    cpp_dir = pathlib.Path(cpp_dir).resolve()
    rank = {name: i for i, name in enumerate(LAYERS)}
    found = []
    for source in sorted(p for p in cpp_dir.rglob("*") if p.suffix in SUFFIXES and p.is_file()):
        src = _layer(cpp_dir, source)
        lines = source.read_text(encoding="utf-8", errors="replace").splitlines()
        for lineno, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = _target(cpp_dir, source, m.group(1))
            dst = _layer(cpp_dir, target) if target.is_relative_to(cpp_dir) else None
            where = f"{source.relative_to(cpp_dir.parent)}:{lineno}"
            if src not in rank or dst not in rank:
                found.append(f"{where}: {src} -> {dst} ({m.group(1)}): not in a layer of {LAYERS}")
            elif rank[dst] > rank[src]:
                found.append(f"{where}: {src} -> {dst} ({m.group(1)}): {dst} is above {src}")
    return found


def main(argv):
    root = pathlib.Path(argv[1]) if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    cpp_dir = root / "cpp"
    if not cpp_dir.is_dir():
        print(f"no C++ sources at {cpp_dir}", file=sys.stderr)
        return 2
    found = violations(cpp_dir)
    for v in found:
        print(v)
    if found:
        print(f"{len(found)} include(s) point up a layer; order, bottom up: {' < '.join(LAYERS)}")
        return 1
    print(f"OK: includes under {cpp_dir.name}/ follow {' < '.join(LAYERS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
