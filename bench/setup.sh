#!/usr/bin/env bash
# Creates the benchmark virtualenv with the peers (XLA:CPU via jax/jaxlib, IREE) from PyPI.
# Usage: bash bench/setup.sh [VENV_DIR]   (default: $STRATA_BENCH_VENV or /tmp/strata-bench-venv)
set -euo pipefail
VENV="${1:-${STRATA_BENCH_VENV:-/tmp/strata-bench-venv}}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet jax jaxlib numpy iree-base-compiler iree-base-runtime matplotlib
"$VENV/bin/python" - <<'PY'
import importlib.metadata as md
for p in ("jax", "jaxlib", "numpy", "iree-base-compiler", "iree-base-runtime"):
    print(f"{p}=={md.version(p)}")
PY
echo "venv ready: $VENV  (run: $VENV/bin/python bench/run.py)"
