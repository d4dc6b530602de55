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

// -----

// A real_dynamic_slice from a start computed at run time to start + constant
// sizes (JAX slicing a batched value at a loop's index) becomes a
// dynamic_slice of those sizes; a start element clamped between equal
// bounds (the dimension taken whole) is that constant.

// CHECK-LABEL: func.func @slice_at
// CHECK: %[[ROW:.*]] = "xla.slice"(%[[START:.*]]) {start_indices = array<i64: 0>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (tensor<2xi32>) -> tensor<1xi32>
// CHECK: %[[R:.*]] = "xla.reshape"(%[[ROW]]) : (tensor<1xi32>) -> tensor<i32>
// CHECK: %[[ZERO:.*]] = "xla.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
// CHECK: "xla.dynamic_slice"(%arg0, %[[R]], %[[ZERO]]) {slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
func.func @slice_at(%x: tensor<5x3xf32>, %i: tensor<i32>) -> tensor<1x3xf32> {
  %i1 = stablehlo.reshape %i : (tensor<i32>) -> tensor<1xi32>
  %z = stablehlo.constant dense<0> : tensor<1xi32>
  %at = stablehlo.concatenate %i1, %z, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %lo = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
  %hi = stablehlo.constant dense<[4, 0]> : tensor<2xi32>
  %start = stablehlo.clamp %lo, %at, %hi : tensor<2xi32>
  %sizes = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %limit = stablehlo.add %start, %sizes : tensor<2xi32>
  %ones = stablehlo.constant dense<1> : tensor<2xi32>
  %s = stablehlo.real_dynamic_slice %x, %start, %limit, %ones : (tensor<5x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x3xf32>
  return %s : tensor<1x3xf32>
}

