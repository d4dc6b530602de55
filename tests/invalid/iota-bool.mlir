// RUN: not strata opt %s 2>&1 | FileCheck %s

// Regression (tests/invalid/FUZZING.md): xla.iota accepted an i1 result and produced
// [false, true, true] (the index converted with `!= 0`). StableHLO defines iota
// for integer, float and complex results only (its verifier rejects i1), so
// the verifier must reject it (dialects/xla/src/ops/shape.rs, verify_iota).

func.func @iota_i1() -> tensor<3xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.iota' op
  %0 = stablehlo.iota dim = 0 : tensor<3xi1>
  return %0 : tensor<3xi1>
}
