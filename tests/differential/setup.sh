#!/usr/bin/env bash
# Creates the Python environment the differential test runs XLA:CPU in (jax, numpy).
# Usage: bash tests/differential/setup.sh [VENV]   (default: $STRATA_TEST_VENV or /tmp/strata-test-venv)
set -euo pipefail
VENV="${1:-${STRATA_TEST_VENV:-/tmp/strata-test-venv}}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import jax, numpy" 2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet jax jaxlib numpy
fi
# `wheel`: the Python package's wheel is built in the tests (setuptools < 70
# needs it for bdist_wheel).
if ! "$VENV/bin/python" -c "import wheel" 2>/dev/null; then
    "$VENV/bin/python" -m pip install --quiet wheel
fi
echo "differential-test venv ready: $VENV"
