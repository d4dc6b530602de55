// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}8 passed, 0 failed{{$}}

// XLA's broadcasting rules (operation semantics, "Broadcasting"), each
// example run natively and compared with the documented values.

// Scalar operand: broadcasts to any shape without attributes.
func.func @scalar_plus_matrix() {
  %s = stablehlo.constant dense<10.0> : tensor<f32>
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = "xla.add"(%s, %m) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[11.0, 12.0, 13.0], [14.0, 15.0, 16.0]]> : tensor<2x3xf32>
  func.return
}

// -----

// Vector added to each row: broadcast_dimensions = (1).
func.func @rows() {
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %r = "xla.add"(%m, %v) {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[2, 4, 6], [5, 7, 9]]> : tensor<2x3xi32>
  func.return
}

// -----

// Vector added to each column: broadcast_dimensions = (0); the lower-rank
// operand may be the lhs.
func.func @columns() {
  %v = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = "xla.add"(%v, %m) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[11, 12, 13], [24, 25, 26]]> : tensor<2x3xi32>
  func.return
}

// -----

// Degenerate dimensions: (2,1) with (2,3).
func.func @degenerate() {
  %a = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %b = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = "xla.multiply"(%a, %b) : (tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[1, 2, 3], [8, 10, 12]]> : tensor<2x3xi32>
  func.return
}

// -----

// The outer operation: (2,1) with (1,3) gives (2,3).
func.func @outer() {
  %a = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %b = stablehlo.constant dense<[[10, 20, 30]]> : tensor<1x3xi32>
  %r = "xla.add"(%a, %b) : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[11, 21, 31], [12, 22, 32]]> : tensor<2x3xi32>
  func.return
}

// -----

// Rank extension then degenerate broadcasting: vector 4 + matrix 1x2 with
// dims (0) gives 4x2.
func.func @vector4_matrix1x2() {
  %v = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %m = stablehlo.constant dense<[[10, 20]]> : tensor<1x2xi32>
  %r = "xla.add"(%v, %m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
  check.expect_eq_const %r, dense<[[11, 21], [12, 22], [13, 23], [14, 24]]> : tensor<4x2xi32>
  func.return
}

// -----

// 1x2 with 4x3x1 and dims (1, 2) gives 4x3x2.
func.func @rank2_rank3() {
  %a = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %b = stablehlo.iota dim = 0 : tensor<4x3x1xi32>
  %r = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<1x2xi32>, tensor<4x3x1xi32>) -> tensor<4x3x2xi32>
  check.expect_eq_const %r, dense<[[[1, 2], [1, 2], [1, 2]], [[2, 3], [2, 3], [2, 3]], [[3, 4], [3, 4], [3, 4]], [[4, 5], [4, 5], [4, 5]]]> : tensor<4x3x2xi32>
  func.return
}

// -----

// chlo.broadcast_* with broadcast_dimensions parse as the same ops, and
// compare broadcasts too.
func.func @chlo_spelling() {
  %m = stablehlo.constant dense<[[1, 5], [3, 2]]> : tensor<2x2xi32>
  %v = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %s = chlo.broadcast_subtract %m, %v {broadcast_dimensions = array<i64: 1>} : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %s, dense<[[-1, 2], [1, -1]]> : tensor<2x2xi32>
  %c = chlo.broadcast_compare %m, %v {broadcast_dimensions = array<i64: 0>, comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2xi1>
  check.expect_eq_const %c, dense<[[false, true], [false, false]]> : tensor<2x2xi1>
  func.return
}
