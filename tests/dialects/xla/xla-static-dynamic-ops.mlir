// RUN: strata opt %s --split-input-file --xla-static-dynamic-ops | FileCheck %s

// dynamic_* ops with constant shape operands become their static twins.

// CHECK-LABEL: func.func @shapes
// CHECK-NOT: xla.dynamic
// CHECK: "xla.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<3x1xi64>) -> tensor<3x2x2xi64>
// CHECK: "xla.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x4xi64>
// CHECK: "xla.reshape"(%{{.*}}) : (tensor<3x1xi64>) -> tensor<3xi64>
// CHECK: "xla.pad"(%{{.*}}, %{{.*}}) {edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 0, 2>, interior_padding = array<i64: 0, 1>}
func.func @shapes(%x: tensor<3x1xi64>, %p: tensor<i64>) -> (tensor<3x2x2xi64>, tensor<3x4xi64>, tensor<3xi64>, tensor<4x3xi64>) {
  %s3 = stablehlo.constant dense<[3, 2, 2]> : tensor<3xi64>
  %b = "stablehlo.dynamic_broadcast_in_dim"(%x, %s3) {broadcast_dimensions = array<i64: 0, 2>, known_expanding_dimensions = array<i64: 1>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  %s2 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %s2, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi64>
  %s1 = stablehlo.constant dense<[3]> : tensor<1xi64>
  %r = stablehlo.dynamic_reshape %x, %s1 : (tensor<3x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %hi = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
  %in = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
  %pd = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in : (tensor<3x1xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xi64>
  return %b, %i, %r, %pd : tensor<3x2x2xi64>, tensor<3x4xi64>, tensor<3xi64>, tensor<4x3xi64>
}
