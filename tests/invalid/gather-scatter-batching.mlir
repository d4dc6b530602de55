// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Regressions from the attribute-mutation probe (tests/invalid/FUZZING.md, B25): the
// scatter verifier did not check scatter_indices_batching_dims at all, so a JAX LU-solve
// export with it changed from [0] to [2] panicked in convert-xla-to-loop (index out of
// bounds); gather and scatter also skipped StableHLO's other batching, sortedness and
// rank constraints, which the lowering relies on.

// The indices have rank 2: dimension 2 does not exist.
func.func @scatter_batching_out_of_range(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>, %upd: tensor<3xi32>) -> tensor<3x5xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op scatter_indices_batching_dims [2] must be unique dimensions below 2
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [2], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// The batching dimension of the indices is the index vector dimension.
func.func @scatter_batching_is_index_vector(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>, %upd: tensor<3xi32>) -> tensor<3x5xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op scatter_indices_batching_dims [1] may not contain index_vector_dim 1
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// Paired batching dimensions of different sizes (3 in the operand, 2 in the indices).
func.func @scatter_batching_sizes(%op: tensor<3x5xi32>, %idx: tensor<2x1xi32>, %upd: tensor<2xi32>) -> tensor<3x5xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op batching dimension 0 of the operand has size 3, but dimension 0 of the indices has size 2
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// A dimension both inserted and batching.
func.func @scatter_inserted_and_batching(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>, %upd: tensor<3xi32>) -> tensor<3x5xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op dimension 0 is in both inserted_window_dims and input_batching_dims
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// Indexing the batching dimension itself.
func.func @scatter_index_map_batching(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>, %upd: tensor<3xi32>) -> tensor<3x5xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op dimension 0 is in both scatter_dims_to_operand_dims and input_batching_dims
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}

// -----

// Window dimensions out of order.
func.func @scatter_unsorted_window(%op: tensor<4x5x6xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2x5x6xf32>) -> tensor<4x5x6xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op update_window_dims [2, 1] must be sorted
  %0 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<4x5x6xf32>, tensor<2x1xi32>, tensor<2x5x6xf32>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// -----

// The gather twin: start_indices_batching_dims out of range.
func.func @gather_batching_out_of_range(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>) -> tensor<3xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op start_indices_batching_dims [5] must be unique dimensions below 2
  %0 = "stablehlo.gather"(%op, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [5], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<3x5xi32>, tensor<3x1xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Gather: the paired batching dimensions differ in size.
func.func @gather_batching_sizes(%op: tensor<3x5xi32>, %idx: tensor<2x1xi32>) -> tensor<2xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op batching dimension 0 of the operand has size 3, but dimension 0 of the indices has size 2
  %0 = "stablehlo.gather"(%op, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<3x5xi32>, tensor<2x1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Gather: an operand dimension that is neither an offset, collapsed nor batching one.
func.func @gather_rank_split(%op: tensor<3x5xi32>, %idx: tensor<2x1xi32>) -> tensor<2xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op the operand has rank 2, but offset_dims [], collapsed_slice_dims [0], operand_batching_dims [] name 1 dimensions
  %0 = "stablehlo.gather"(%op, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<3x5xi32>, tensor<2x1xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// A batched gather and scatter as JAX writes them still verify.
// CHECK-LABEL: func.func @valid
func.func @valid(%op: tensor<3x5xi32>, %idx: tensor<3x1xi32>, %upd: tensor<3xi32>) -> (tensor<3xi32>, tensor<3x5xi32>) {
  // CHECK-NOT: error
  %0 = "stablehlo.gather"(%op, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<3x5xi32>, tensor<3x1xi32>) -> tensor<3xi32>
  %1 = "stablehlo.scatter"(%op, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  return %0, %1 : tensor<3xi32>, tensor<3x5xi32>
}
