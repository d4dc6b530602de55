// RUN: not strata opt %s --split-input-file --xla-static-dynamic-ops 2>&1 | FileCheck %s

func.func @shape_mismatch() -> tensor<3x4xi64> {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_iota' op output shape [3, 5] does not match the result type's [3, 4]
  %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<3x4xi64>
  return %i : tensor<3x4xi64>
}

// -----

func.func @computed_shape(%s: tensor<1xi64>, %x: tensor<3x1xi64>) -> tensor<3xi64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unsupported: 'xla.dynamic_reshape' with an operand (output shape) computed at run time is not supported (only constants)
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<3x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  return %r : tensor<3xi64>
}

// -----

// Regressions from fuzzing (tests/invalid/FUZZING.md, B18): the dynamic ops have no
// verifier, so a missing attribute or operand reached the pass, which made invalid IR
// ("internal compiler error: IR is invalid after pass") or indexed past the operands.
func.func @missing_broadcast_dimensions() -> tensor<3x2x2xi64> {
  %x = stablehlo.constant dense<[[1], [2], [3]]> : tensor<3x1xi64>
  %s = stablehlo.constant dense<[3, 2, 2]> : tensor<3xi64>
  // CHECK-NOT: internal compiler error
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_in_dim' op requires attribute 'broadcast_dimensions' {{.*}}(the static form of 'xla.dynamic_broadcast_in_dim' with constant operands)
  %r = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimefsions = array<i64: 0, 2>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  return %r : tensor<3x2x2xi64>
}

// -----

func.func @missing_operand() -> tensor<3xi64> {
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_reshape' op expects 2 operands and 1 result, found 1 and 1
  %r = "stablehlo.dynamic_reshape"(%x) : (tensor<3xi64>) -> tensor<3xi64>
  return %r : tensor<3xi64>
}
