// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Regression (tests/invalid/FUZZING.md): xla.abs and xla.sign accepted unsigned integers
// and lowered them as signed (abs(200 : ui8) = 56, sign(255 : ui8) = 255).
// StableHLO defines both only for signed integer, float and complex operands
// (its own verifier rejects tensor<4xui8>), so the verifier must reject them
// (dialects/xla/src/ops/elementwise.rs, accepts).

func.func @abs_unsigned(%a: tensor<4xui8>) -> tensor<4xui8> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.abs' op does not accept element type ui8
  %0 = stablehlo.abs %a : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

func.func @sign_unsigned(%a: tensor<4xui32>) -> tensor<4xui32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sign' op does not accept element type ui32
  %0 = stablehlo.sign %a : tensor<4xui32>
  return %0 : tensor<4xui32>
}
