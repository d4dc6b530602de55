// RUN: { echo 'func.func @main(%%a: tensor<4xf32>) -> tensor<4xf32> {'; \
// RUN:   echo '  %%v0 = stablehlo.add %%a, %%a : tensor<4xf32>'; \
// RUN:   seq 1 200000 | awk '{ printf "  %%%%v%%d = stablehlo.add %%%%v%%d, %%%%v%%d : tensor<4xf32>\n", $1, $1 - 1, $1 - 1 }'; \
// RUN:   echo '  return %%v200000 : tensor<4xf32>'; echo '}'; } > %t.mlir
// RUN: ulimit -t 60 && strata opt %t.mlir --convert-xla-to-loop | FileCheck %s

// Regression (tests/invalid/FUZZING.md): convert-xla-to-loop was quadratic in the number
// of ops: after each op, FuncLowering::release_dead scanned the whole
// last-read map for the buffers that died there
// (compiler/conversion/src/xla_to_loop/mod.rs). A chain of 20,000 multi-use
// adds took 4.5 s to lower, 10,000 took 1.4 s. 200,000 ops must lower in well
// under a minute.

// CHECK-LABEL: func.func @main
// CHECK: "func.return"
