// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of gather and scatter, with and without batching dimensions.

// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[A:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<3x1xi32>)
func.func @gather(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: %[[G:.*]] = "xla.gather"(%[[A]], %[[I]]) {dimension_numbers = #stablehlo.gather<offset_dims = [1 : i64], collapsed_slice_dims = [0 : i64], start_index_map = [0 : i64], index_vector_dim = 1 : i64>, indices_are_sorted = true, slice_sizes = array<i64: 1, 4>} : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  // CHECK: "func.return"(%[[G]])
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @gather_batching
// CHECK-SAME: (%[[A:.*]]: tensor<2x5xf32>, %[[I:.*]]: tensor<2x3x1xi32>)
func.func @gather_batching(%a: tensor<2x5xf32>, %i: tensor<2x3x1xi32>) -> tensor<2x3xf32> {
  // CHECK: %[[G:.*]] = "xla.gather"(%[[A]], %[[I]]) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1 : i64], operand_batching_dims = [0 : i64], start_indices_batching_dims = [0 : i64], start_index_map = [1 : i64], index_vector_dim = 2 : i64>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>} : (tensor<2x5xf32>, tensor<2x3x1xi32>) -> tensor<2x3xf32>
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x5xf32>, tensor<2x3x1xi32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[G]])
  return %0 : tensor<2x3xf32>
}

// A segment sum: the update computation is a region.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<6x1xi32>, %[[U:.*]]: tensor<6xf32>)
func.func @scatter_add(%a: tensor<3xf32>, %i: tensor<6x1xi32>, %u: tensor<6xf32>) -> tensor<3xf32> {
  // CHECK: %[[S:.*]] = "xla.scatter"(%[[A]], %[[I]], %[[U]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[SUM:.*]] = "xla.add"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[SUM]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0 : i64], scatter_dims_to_operand_dims = [0 : i64], index_vector_dim = 1 : i64>, unique_indices = true} : (tensor<3xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<3xf32>
  %0 = "stablehlo.scatter"(%a, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<3xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<3xf32>
  // CHECK: "func.return"(%[[S]])
  return %0 : tensor<3xf32>
}

// Setting whole rows: an update window dimension.
// CHECK-LABEL: func.func @scatter_rows
// CHECK-SAME: (%[[A:.*]]: tensor<5x4xf32>, %[[I:.*]]: tensor<2x1xi32>, %[[U:.*]]: tensor<2x4xf32>)
func.func @scatter_rows(%a: tensor<5x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x4xf32> {
  // CHECK: %[[S:.*]] = "xla.scatter"(%[[A]], %[[I]], %[[U]]) ({
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<f32>, %[[NEW:.*]]: tensor<f32>):
  // CHECK-NEXT: "xla.return"(%[[NEW]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1 : i64], inserted_window_dims = [0 : i64], scatter_dims_to_operand_dims = [0 : i64], index_vector_dim = 1 : i64>, unique_indices = true} : (tensor<5x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  %0 = "stablehlo.scatter"(%a, %i, %u) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    stablehlo.return %new : tensor<f32>
  }) : (tensor<5x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  // CHECK: "func.return"(%[[S]])
  return %0 : tensor<5x4xf32>
}

// CHECK-LABEL: func.func @scatter_batching
// CHECK-SAME: (%[[A:.*]]: tensor<2x5xf32>, %[[I:.*]]: tensor<2x3x1xi32>, %[[U:.*]]: tensor<2x3xf32>)
func.func @scatter_batching(%a: tensor<2x5xf32>, %i: tensor<2x3x1xi32>, %u: tensor<2x3xf32>) -> tensor<2x5xf32> {
  // CHECK: %[[S:.*]] = "xla.scatter"(%[[A]], %[[I]], %[[U]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[P:.*]] = "xla.multiply"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[P]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1 : i64], input_batching_dims = [0 : i64], scatter_indices_batching_dims = [0 : i64], scatter_dims_to_operand_dims = [1 : i64], index_vector_dim = 2 : i64>, unique_indices = false} : (tensor<2x5xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  %0 = "stablehlo.scatter"(%a, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    %1 = stablehlo.multiply %old, %new : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<2x5xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  // CHECK: "func.return"(%[[S]])
  return %0 : tensor<2x5xf32>
}
