// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Regressions from fuzzing (tests/invalid/FUZZING.md, B19): the scatter verifier did not
// relate the updates' shape to the indices and the operand, so a JAX export with
// index_vector_dim changed from 1 to 2 verified and then made invalid IR in
// convert-xla-to-loop ("internal compiler error: 'mem.load' op expects 2 indices").

// Indices 3x1 with index_vector_dim = 2 have scatter dimensions [3, 1]; updates are [3].
func.func @scatter_dims_rank(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>, %upd: tensor<3xi32>) -> tensor<3x5xi32> {
  // CHECK-NOT: internal compiler error
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op updates of shape [3] need 2 scatter dimensions
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// The scatter dimension has 2 updates for 3 indices.
func.func @scatter_dims_size(%op: tensor<5xf32>, %idx: tensor<3x1xi32>, %upd: tensor<2xf32>) -> tensor<5xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op the scatter dimensions of the updates are [2], expected the indices' [3]
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<5xf32>, tensor<3x1xi32>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// A window of 4 rows does not fit in the operand's 3.
func.func @window_too_large(%op: tensor<3x5xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x4xf32>) -> tensor<3x5xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op update window dimension 1 has size 4, larger than the operand's 3
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<3x5xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A valid scatter (a row of updates into column 1 per index) still verifies.
// CHECK-LABEL: func.func @valid
func.func @valid(%op: tensor<3x5xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xf32>) -> tensor<3x5xf32> {
  // CHECK-NOT: error
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<3x5xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
