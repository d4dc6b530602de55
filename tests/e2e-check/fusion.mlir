// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}4 passed, 0 failed{{$}}

// Fused element-wise chains whose values have several uses (some fused, some
// materialized), index-only ops read twice, and results that are also
// operands of later ops. Expected values computed with numpy.

func.func @multi_use_chain() {
  %x = stablehlo.constant dense<[0.5, -1.0, 2.0, 0.0]> : tensor<4xf64>
  %y = stablehlo.exponential %x : tensor<4xf64>
  %yy = stablehlo.multiply %y, %y : tensor<4xf64>
  %z = stablehlo.add %yy, %y : tensor<4xf64>
  %t = stablehlo.tanh %z : tensor<4xf64>
  %w = stablehlo.subtract %t, %y : tensor<4xf64>
  check.expect_almost_eq_const %z, dense<[4.367003099159174, 0.503214724408055, 61.987206132074895, 2.0]> : tensor<4xf64>
  check.expect_almost_eq_const %w, dense<[-0.6490432510559979, 0.09676216983886815, -6.38905609893065, -0.0359724199241831]> : tensor<4xf64>
  func.return
}

// -----

func.func @transpose_used_twice() {
  %a = stablehlo.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = stablehlo.reverse %t, dims = [0] : tensor<3x2xf32>
  %sq = stablehlo.multiply %t, %t : tensor<3x2xf32>
  %0 = stablehlo.add %sq, %r : tensor<3x2xf32>
  check.expect_eq_const %0, dense<[[2.0, 14.0], [2.0, 20.0], [4.0, 28.0]]> : tensor<3x2xf32>
  func.return
}

// -----

func.func @pad_concat_reverse() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %v = stablehlo.constant dense<-1> : tensor<i32>
  %p = stablehlo.pad %a, %v, low = [1], high = [2], interior = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<6xi32>
  %p2 = stablehlo.add %p, %p : tensor<6xi32>
  %q = stablehlo.concatenate %p, %p2, dim = 0 : (tensor<6xi32>, tensor<6xi32>) -> tensor<12xi32>
  %r = stablehlo.reverse %q, dims = [0] : tensor<12xi32>
  %0 = stablehlo.add %q, %r : tensor<12xi32>
  check.expect_eq_const %p, dense<[-1, 1, 2, 3, -1, -1]> : tensor<6xi32>
  check.expect_eq_const %q, dense<[-1, 1, 2, 3, -1, -1, -2, 2, 4, 6, -2, -2]> : tensor<12xi32>
  check.expect_eq_const %0, dense<[-3, -1, 8, 7, 1, -3, -3, 1, 7, 8, -1, -3]> : tensor<12xi32>
  func.return
}

// -----

// A value feeding both a reduction and an element-wise consumer, and a
// broadcast of the reduction back over the input (softmax-like).
func.func @reduce_and_broadcast_back() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %e = stablehlo.exponential %x : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %0 = stablehlo.divide %e, %b : tensor<2x3xf32>
  check.expect_almost_eq_const %0, dense<[[0.09003057, 0.24472847, 0.66524096], [0.33333334, 0.33333334, 0.33333334]]> : tensor<2x3xf32>
  func.return
}
