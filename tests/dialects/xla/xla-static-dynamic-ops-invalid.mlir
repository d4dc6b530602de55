// RUN: not strata opt %s --split-input-file --xla-static-dynamic-ops 2>&1 | FileCheck %s

// A real_dynamic_slice from a start computed at run time is supported only
// up to start + constant sizes with unit strides (xla-static-dynamic-ops.mlir).

func.func @slice_from(%x: tensor<5x3xf32>, %start: tensor<2xi32>) -> tensor<1x3xf32> {
  %limit = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %ones = stablehlo.constant dense<1> : tensor<2xi32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unsupported: 'xla.real_dynamic_slice' with an operand (start indices) computed at run time is not supported (only with the limit start + constant sizes and unit strides)
  %s = stablehlo.real_dynamic_slice %x, %start, %limit, %ones : (tensor<5x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x3xf32>
  return %s : tensor<1x3xf32>
}
