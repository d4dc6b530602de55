#!/bin/sh
# Copies programs of StableHLO's JAX-generated test suite (openxla/stablehlo,
# stablehlo/testdata/, Apache-2.0) here as `strata check` regression tests:
# the upstream RUN lines (stablehlo-opt / stablehlo-translate --interpret)
# become one `strata check` RUN line, and a comment records the origin.
#
#   tests/stablehlo-testdata/import.sh TESTDATA_DIR NAME...
#
# NAME is a program's file name without `.mlir` (e.g. cosh_float32_20_20_chlo).
set -eu
src=$1
shift
here=$(dirname "$0")
for name in "$@"; do
    in="$src/$name.mlir"
    out="$here/$name.mlir"
    {
        echo "// RUN: strata check %s | FileCheck %s"
        echo "// CHECK: 1 passed, 0 failed"
        echo "// From StableHLO's test suite: openxla/stablehlo, stablehlo/testdata/$name.mlir"
        echo "// (Apache-2.0; expected values from XLA:CPU), its RUN lines replaced."
        grep -v '^// RUN' "$in"
    } > "$out"
    echo "$out"
done
