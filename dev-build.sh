#!/usr/bin/env bash
# Developer build: incremental CMake/Ninja build of eagerflow._core into build/dev, linked into
# python/eagerflow so `PYTHONPATH=python pytest` uses the working tree. (Users run pip install .)
set -euo pipefail
cd "$(dirname "$0")"
BUILD=${BUILD_DIR:-build/dev}
if [ ! -f "$BUILD/build.ninja" ]; then
  launcher=()
  # ccache (when installed) lets worktrees and rebuilds share object files.
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEAGERFLOW_BUILD_TESTS=ON "${launcher[@]}" \
    -DPython_EXECUTABLE="$(command -v python3)" >/dev/null
fi
cmake --build "$BUILD" -j "${JOBS:-2}"
so=$(ls "$BUILD"/_core*.so)
ln -sf "$(realpath "$so")" python/eagerflow/
