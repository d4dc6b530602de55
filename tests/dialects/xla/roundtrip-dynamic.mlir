// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of StableHLO's dynamic-shape ops (shape, padding and slice sizes as operands).

// Both forms: the generic one, and the pretty one JAX's shape-polymorphic
// exports print (`dims = [..]`, the known dimensions inline or in the
// attribute dictionary).
// CHECK-LABEL: func.func @dynamic_broadcast_in_dim
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xi64>, %[[S:.*]]: tensor<3xi64>)
func.func @dynamic_broadcast_in_dim(%x: tensor<3x1xi64>, %s: tensor<3xi64>) -> (tensor<3x2x2xi64>, tensor<3x2x2xi64>, tensor<3x2x2xi64>) {
  // CHECK: %[[B:.*]] = "xla.dynamic_broadcast_in_dim"(%[[X]], %[[S]]) {broadcast_dimensions = array<i64: 0, 2>, known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = array<i64: 0, 2>, known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  // CHECK: %[[P:.*]] = "xla.dynamic_broadcast_in_dim"(%[[X]], %[[S]]) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  %1 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 2] : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  // CHECK: %[[K:.*]] = "xla.dynamic_broadcast_in_dim"(%[[X]], %[[S]]) {broadcast_dimensions = array<i64: 0, 2>, known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  %2 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 2], known_expanding_dimensions = [1], known_nonexpanding_dimensions = [0] : (tensor<3x1xi64>, tensor<3xi64>) -> tensor<3x2x2xi64>
  // CHECK: "func.return"(%[[B]], %[[P]], %[[K]])
  return %0, %1, %2 : tensor<3x2x2xi64>, tensor<3x2x2xi64>, tensor<3x2x2xi64>
}

// CHECK-LABEL: func.func @dynamic_iota
// CHECK-SAME: (%[[S:.*]]: tensor<2xi64>)
func.func @dynamic_iota(%s: tensor<2xi64>) -> tensor<3x4xi64> {
  // CHECK: %[[I:.*]] = "xla.dynamic_iota"(%[[S]]) {iota_dimension = 1 : i64} : (tensor<2xi64>) -> tensor<3x4xi64>
  %0 = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi64>
  // CHECK: "func.return"(%[[I]])
  return %0 : tensor<3x4xi64>
}

// CHECK-LABEL: func.func @dynamic_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xi64>, %[[S:.*]]: tensor<1xi64>)
func.func @dynamic_reshape(%x: tensor<3x1xi64>, %s: tensor<1xi64>) -> tensor<3xi64> {
  // CHECK: %[[R:.*]] = "xla.dynamic_reshape"(%[[X]], %[[S]]) : (tensor<3x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<3x1xi64>, tensor<1xi64>) -> tensor<3xi64>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<3xi64>
}

// CHECK-LABEL: func.func @dynamic_pad
// CHECK-SAME: (%[[X:.*]]: tensor<3x1xi64>, %[[P:.*]]: tensor<i64>, %[[LO:.*]]: tensor<2xi64>, %[[HI:.*]]: tensor<2xi64>, %[[IN:.*]]: tensor<2xi64>)
func.func @dynamic_pad(%x: tensor<3x1xi64>, %p: tensor<i64>, %lo: tensor<2xi64>, %hi: tensor<2xi64>, %in: tensor<2xi64>) -> tensor<4x3xi64> {
  // CHECK: %[[R:.*]] = "xla.dynamic_pad"(%[[X]], %[[P]], %[[LO]], %[[HI]], %[[IN]]) : (tensor<3x1xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xi64>
  %0 = stablehlo.dynamic_pad %x, %p, %lo, %hi, %in : (tensor<3x1xi64>, tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xi64>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<4x3xi64>
}

// CHECK-LABEL: func.func @dynamic_gather
// CHECK-SAME: (%[[A:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<3x1xi32>, %[[S:.*]]: tensor<2xi32>)
func.func @dynamic_gather(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>, %s: tensor<2xi32>) -> tensor<3x4xf32> {
  // CHECK: %[[G:.*]] = "xla.dynamic_gather"(%[[A]], %[[I]], %[[S]]) {dimension_numbers = #stablehlo.gather<offset_dims = [1 : i64], collapsed_slice_dims = [0 : i64], start_index_map = [0 : i64], index_vector_dim = 1 : i64>, indices_are_sorted = true} : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x4xf32>
  %0 = "stablehlo.dynamic_gather"(%a, %i, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true}> : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x4xf32>
  // CHECK: "func.return"(%[[G]])
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @dynamic_conv
// CHECK-SAME: (%[[L:.*]]: tensor<1x3x3x2xf32>, %[[K:.*]]: tensor<2x2x2x4xf32>, %[[P:.*]]: tensor<2x2xi64>)
func.func @dynamic_conv(%lhs: tensor<1x3x3x2xf32>, %rhs: tensor<2x2x2x4xf32>, %pad: tensor<2x2xi64>) -> tensor<1x2x2x4xf32> {
  // CHECK: %[[C:.*]] = "xla.dynamic_conv"(%[[L]], %[[K]], %[[P]])
  // CHECK-SAME: {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>,
  // CHECK-SAME: window_strides = array<i64: 1, 2>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}
  // CHECK-SAME: : (tensor<1x3x3x2xf32>, tensor<2x2x2x4xf32>, tensor<2x2xi64>) -> tensor<1x2x2x4xf32>
  %0 = "stablehlo.dynamic_conv"(%lhs, %rhs, %pad) <{dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 2>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x3x3x2xf32>, tensor<2x2x2x4xf32>, tensor<2x2xi64>) -> tensor<1x2x2x4xf32>
  // CHECK: "func.return"(%[[C]])
  return %0 : tensor<1x2x2x4xf32>
}
