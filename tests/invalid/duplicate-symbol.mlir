// RUN: not strata opt %s 2>&1 | FileCheck %s

// Regression (tests/invalid/FUZZING.md): two functions with the same name (even with
// different signatures) were accepted; `strata compile` then exported one as
// P_f and the other as P_f.2 (with the first one's buffer sizes), and the
// header declared P_f twice. A redefined symbol must be a located error
// (compiler/ir verifier / parser symbol table).

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: {{.*}}@f
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.negate %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}
