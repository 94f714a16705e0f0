#!/usr/bin/env bash
# Developer build: incremental CMake/Ninja build of eagerflow._core into build/dev, linked into
# python/eagerflow so `PYTHONPATH=python pytest` uses the working tree. (Users run pip install .)
# Installs what it needs into the current Python environment when missing: the build
# requirements of pyproject.toml, CMake and Ninja.
set -euo pipefail
cd "$(dirname "$0")"
PY=$(command -v python3)
if ! "$PY" -c "import pybind11, cmeel, numpy, scipy_openblas32" 2>/dev/null; then
  "$PY" -m pip install -q "pybind11>=2.11" "cmeel-eigen>=3.4" "numpy>=1.22" "scipy-openblas32>=0.3.27"
fi
command -v cmake >/dev/null || "$PY" -m pip install -q cmake
command -v ninja >/dev/null || "$PY" -m pip install -q ninja
BUILD=${BUILD_DIR:-build/dev}
if [ ! -f "$BUILD/build.ninja" ]; then
  tests=ON  # the C++ unit tests need GoogleTest (Debian: libgtest-dev)
  if [ ! -f /usr/include/gtest/gtest.h ] && [ ! -f /usr/local/include/gtest/gtest.h ]; then
    tests=OFF
    echo "dev-build: GoogleTest not found, building without the C++ unit tests" >&2
  fi
  # -march=native: fast on this machine, never shipped (pip builds leave it off). No strip: perf
  # needs the symbols.
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEAGERFLOW_BUILD_TESTS=$tests -DEAGERFLOW_NATIVE=ON \
    -DCMAKE_STRIP=/usr/bin/true \
    -DPython_EXECUTABLE="$PY" >/dev/null
fi
cmake --build "$BUILD" -j "${JOBS:-$(nproc)}"
so=$(ls "$BUILD"/_core*.so)
ln -sf "$(realpath "$so")" python/eagerflow/
