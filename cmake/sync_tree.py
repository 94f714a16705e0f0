"""Mirrors a directory of headers into a fixed place, writing only files whose content differs.

Usage: python sync_tree.py SRC DST. pip builds in a fresh isolated environment each time, so the
pybind11 and Eigen headers move between builds; compiling against a mirror at a fixed path (whose
unchanged files keep their timestamps) lets a second build reuse every object of the first.
"""
import os
import shutil
import sys


def sync(src, dst):
    seen = set()
    for root, _, files in os.walk(src):
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for name in files:
            s, d = os.path.join(root, name), os.path.normpath(os.path.join(dst, rel, name))
            seen.add(d)
            try:
                with open(s, "rb") as a, open(d, "rb") as b:
                    if a.read() == b.read():
                        continue
            except FileNotFoundError:
                pass
            shutil.copyfile(s, d)
    for root, _, files in os.walk(dst):  # headers the package no longer has
        for name in files:
            d = os.path.normpath(os.path.join(root, name))
            if d not in seen:
                os.remove(d)


if __name__ == "__main__":
    sync(sys.argv[1], sys.argv[2])
