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
