// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Invalid broadcasts get a located error naming both shapes.

func.func @wrong_dimension(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op cannot broadcast shapes (2,3) and (3) with broadcast_dimensions (0): sizes 2 and 3 differ in result dimension 0
  %r = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @same_rank_mismatch(%a: tensor<7x2x5xf32>, %b: tensor<7x2x6xf32>) -> tensor<7x2x6xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op cannot broadcast shapes (7,2,5) and (7,2,6): sizes 5 and 6 differ in result dimension 2
  %r = stablehlo.add %a, %b : (tensor<7x2x5xf32>, tensor<7x2x6xf32>) -> tensor<7x2x6xf32>
  func.return %r : tensor<7x2x6xf32>
}

// -----

func.func @ranks_need_dims(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op operands of shapes (2,3) and (3) have different ranks and need broadcast_dimensions (or an auto_broadcast mode)
  %r = "xla.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @dims_not_increasing(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op broadcast_dimensions (1,0) must be strictly increasing (shapes (2,3) and (3,2))
  %r = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @dims_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op broadcast_dimensions entry 2 is out of range for rank 2 (shapes (2,3) and (3))
  %r = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @wrong_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op inferred type tensor<2x3xf32> does not match result type tensor<3x3xf32>
  %r = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}

// -----

func.func @numpy_mismatch(%a: tensor<3x1x5xf32>, %b: tensor<4x4x5xf32>) -> tensor<4x4x5xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op numpy broadcasting of shapes (3,1,5) and (4,4,5) fails: sizes 3 and 4 differ in aligned dimension 0
  %r = "xla.add"(%a, %b) {auto_broadcast = "numpy"} : (tensor<3x1x5xf32>, tensor<4x4x5xf32>) -> tensor<4x4x5xf32>
  func.return %r : tensor<4x4x5xf32>
}

// -----

func.func @pdpd_b_larger_than_a(%a: tensor<3x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op PDPD broadcasting cannot place B onto A at axis -1: B must broadcast to A (shapes (3,4) and (2,3,4))
  %r = "xla.add"(%a, %b) {auto_broadcast = "pdpd"} : (tensor<3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}

// -----

func.func @pdpd_a_to_b_only(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op PDPD broadcasting requires B to broadcast to A: size 3 of B dimension 1 does not match size 1 of A dimension 1 (shapes (2,1) and (2,3))
  %r = "xla.add"(%a, %b) {auto_broadcast = "pdpd"} : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @pdpd_negative_axis(%a: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> tensor<2x3x4xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op PDPD broadcast axis -2 is invalid: only -1 or a non-negative axis is allowed (shapes (2,3,4) and (3))
  %r = "xla.add"(%a, %b) {auto_broadcast = "pdpd", axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}

// -----

func.func @none_requires_equal(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op auto_broadcast = "none" requires equal shapes, found (2,3) and (1,3)
  %r = "xla.add"(%a, %b) {auto_broadcast = "none"} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @unknown_mode(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.add' op unknown auto_broadcast mode "left" (expected "numpy", "pdpd" or "none")
  %r = "xla.add"(%a, %b) {auto_broadcast = "left"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @broadcast_to_unidirectional(%a: tensor<3x1xf32>) -> tensor<2x1x6xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.broadcast_to' op cannot broadcast shape (3,1) to target shape (2,1,6)
  %r = "xla.broadcast_to"(%a) {mode = "numpy", target_shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x1x6xf32>
  func.return %r : tensor<2x1x6xf32>
}

// -----

func.func @bidirectional_wrong_result(%a: tensor<3x1xf32>) -> tensor<2x1x6xf32> {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'xla.broadcast_to' op inferred type tensor<2x3x6xf32> does not match result type tensor<2x1x6xf32>
  %r = "xla.broadcast_to"(%a) {mode = "bidirectional", target_shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x1x6xf32>
  func.return %r : tensor<2x1x6xf32>
}
