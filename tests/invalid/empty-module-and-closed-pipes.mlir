// An empty module compiles to a library that exports only its error accessor;
// output written into a closed pipe is dropped without a panic (exit 101).

// RUN: strata compile %s -o %t.so --name empty
// RUN: nm -D --defined-only %t.so | FileCheck %s
// CHECK: T empty_last_error

// Three hundred copies of a valid piece, read through `head`, which closes stdout
// after ten bytes: the exit status stays 0.
// RUN: for i in $(seq 300); do sed -n '/^func.func/,$p' %S/../e2e-check/odd-widths.mlir; echo '// -----'; done > %t.mlir
// RUN: strata opt %t.mlir --split-input-file | head -c 10 > /dev/null
// The same pieces made invalid, with diagnostics on a closed stderr: exit 1.
// RUN: sed 's/tensor<2xi24>/tensor<2xi25>/' %t.mlir > %t-bad.mlir
// RUN: strata opt %t-bad.mlir --split-input-file 2>&1 >/dev/null | head -c 10 > /dev/null; test "${PIPESTATUS[0]}" = 1

module {}
