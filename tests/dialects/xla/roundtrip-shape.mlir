// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of broadcast_to, dynamic_slice, dynamic_update_slice, get_dimension_size and tuples.

// xla.broadcast_to has no StableHLO spelling: generic syntax, numpy-style
// (the default mode) and bidirectional.
// CHECK-LABEL: func.func @broadcast_to
// CHECK-SAME: (%[[A:.*]]: tensor<3x1xf32>, %[[B:.*]]: tensor<2x1xf32>)
func.func @broadcast_to(%a: tensor<3x1xf32>, %b: tensor<2x1xf32>) -> (tensor<2x3x4xf32>, tensor<2x3xf32>) {
  // CHECK: %[[N:.*]] = "xla.broadcast_to"(%[[A]]) {target_shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = "xla.broadcast_to"(%a) {target_shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[BI:.*]] = "xla.broadcast_to"(%[[B]]) {mode = "bidirectional", target_shape = array<i64: 1, 3>} : (tensor<2x1xf32>) -> tensor<2x3xf32>
  %1 = "xla.broadcast_to"(%b) {mode = "bidirectional", target_shape = array<i64: 1, 3>} : (tensor<2x1xf32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[N]], %[[BI]])
  return %0, %1 : tensor<2x3x4xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_slice
// CHECK-SAME: (%[[A:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<i32>, %[[J:.*]]: tensor<i32>)
func.func @dynamic_slice(%a: tensor<4x5xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  // CHECK: %[[S:.*]] = "xla.dynamic_slice"(%[[A]], %[[I]], %[[J]]) {slice_sizes = array<i64: 2, 3>} : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[S]])
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK-SAME: (%[[A:.*]]: tensor<4x5xf32>, %[[U:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<i64>, %[[J:.*]]: tensor<i64>)
func.func @dynamic_update_slice(%a: tensor<4x5xf32>, %u: tensor<2x3xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<4x5xf32> {
  // CHECK: %[[R:.*]] = "xla.dynamic_update_slice"(%[[A]], %[[U]], %[[I]], %[[J]]) : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x5xf32>
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x5xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @get_dimension_size
// CHECK-SAME: (%[[A:.*]]: tensor<4x2xf32>)
func.func @get_dimension_size(%a: tensor<4x2xf32>) -> tensor<i32> {
  // CHECK: %[[D:.*]] = "xla.get_dimension_size"(%[[A]]) {dimension = 1 : i64} : (tensor<4x2xf32>) -> tensor<i32>
  %0 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<4x2xf32>) -> tensor<i32>
  // CHECK: "func.return"(%[[D]])
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @tuple
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<i32>)
func.func @tuple(%a: tensor<4xf32>, %b: tensor<i32>) -> tensor<i32> {
  // CHECK: %[[T:.*]] = "xla.tuple"(%[[A]], %[[B]]) : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
  %0 = stablehlo.tuple %a, %b : tuple<tensor<4xf32>, tensor<i32>>
  // CHECK: %[[E:.*]] = "xla.get_tuple_element"(%[[T]]) {index = 1 : i64} : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
  // CHECK: "func.return"(%[[E]])
  return %1 : tensor<i32>
}
