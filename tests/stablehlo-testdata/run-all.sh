#!/bin/sh
# Runs `strata check` on every program of StableHLO's testdata directory,
# two at a time; prints each failing program, then `N passed, M failed`.
#
#   tests/stablehlo-testdata/run-all.sh /path/to/stablehlo/stablehlo/testdata
#
# STRATA (default: target/release/strata of this checkout) picks the binary.
set -u
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
strata=${STRATA:-$here/../../target/release/strata}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ls "$dir" | grep '\.mlir$' | xargs -P 2 -I{} sh -c \
    "timeout 300 '$strata' check '$dir/{}' > '$out/{}.log' 2>&1 || echo {} >> '$out/failed.{}'"
total=$(ls "$dir" | grep -c '\.mlir$')
failed=$(cat "$out"/failed.* 2>/dev/null | sort)
n=$(printf '%s' "$failed" | grep -c . || true)
[ -n "$failed" ] && printf 'FAIL %s\n' $failed
echo "$((total - n)) passed, $n failed"
