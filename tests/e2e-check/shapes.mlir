// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}6 passed, 0 failed{{$}}

// Reductions over several dimensions, transposes of 3-D tensors and
// dot_general with batch dimensions (including a batch dimension that is not
// leading and a contracting dimension that comes first). Expected values
// computed with numpy (sum / max / transpose / einsum).

func.func @reduce_dims_0_2() {
  %a = stablehlo.iota dim = 0 : tensor<24xf32>
  %b = stablehlo.reshape %a : (tensor<24xf32>) -> tensor<2x3x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %0, dense<[60.0, 92.0, 124.0]> : tensor<3xf32>
  %1 = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [1, 0] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %1, dense<[60.0, 66.0, 72.0, 78.0]> : tensor<4xf32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2 = stablehlo.reduce(%b init: %m) applies stablehlo.maximum across dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %2, dense<[11.0, 23.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @reduce_all_int_product() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.reduce(%a init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %0, dense<720> : tensor<i32>
  func.return
}

// -----

// Reducing an empty dimension gives the init value.
func.func @reduce_empty() {
  %a = stablehlo.constant dense<> : tensor<3x0xf32>
  %z = stablehlo.constant dense<7.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x0xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %0, dense<[7.0, 7.0, 7.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @transpose_3d() {
  %a = stablehlo.iota dim = 0 : tensor<24xf32>
  %b = stablehlo.reshape %a : (tensor<24xf32>) -> tensor<2x3x4xf32>
  %0 = stablehlo.transpose %b, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  check.expect_eq_const %0, dense<[[[0.0, 4.0, 8.0], [12.0, 16.0, 20.0]], [[1.0, 5.0, 9.0], [13.0, 17.0, 21.0]], [[2.0, 6.0, 10.0], [14.0, 18.0, 22.0]], [[3.0, 7.0, 11.0], [15.0, 19.0, 23.0]]]> : tensor<4x2x3xf32>
  %1 = stablehlo.transpose %b, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  check.expect_eq_const %1, dense<[[[0.0, 12.0], [1.0, 13.0], [2.0, 14.0], [3.0, 15.0]], [[4.0, 16.0], [5.0, 17.0], [6.0, 18.0], [7.0, 19.0]], [[8.0, 20.0], [9.0, 21.0], [10.0, 22.0], [11.0, 23.0]]]> : tensor<3x4x2xf32>
  %2 = stablehlo.transpose %b, dims = [0, 2, 1] : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  check.expect_eq_const %2, dense<[[[0.0, 4.0, 8.0], [1.0, 5.0, 9.0], [2.0, 6.0, 10.0], [3.0, 7.0, 11.0]], [[12.0, 16.0, 20.0], [13.0, 17.0, 21.0], [14.0, 18.0, 22.0], [15.0, 19.0, 23.0]]]> : tensor<2x4x3xf32>
  // Transposing back gives the original.
  %3 = stablehlo.transpose %0, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  check.expect_eq %3, %b : tensor<2x3x4xf32>
  func.return
}

// -----

func.func @batch_matmul() {
  %a = stablehlo.constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]> : tensor<2x2x3xf32>
  %b = stablehlo.constant dense<[[[-5.0, -4.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0], [15.0, 16.0, 17.0, 18.0]]]> : tensor<2x3x4xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
  check.expect_eq_const %0, dense<[[[5.0, 8.0, 11.0, 14.0], [-4.0, 8.0, 20.0, 32.0]], [[239.0, 260.0, 281.0, 302.0], [338.0, 368.0, 398.0, 428.0]]]> : tensor<2x2x4xf32>
  func.return
}

// -----

// lhs is (k, m, b), rhs is (b, k, n); the result is (b, m, n).
func.func @dot_general_permuted_dims() {
  %c = stablehlo.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [10, 11]]]> : tensor<3x2x2xi32>
  %d = stablehlo.constant dense<[[[-3, -2], [-1, 0], [1, 2]], [[3, 4], [5, 6], [7, 8]]]> : tensor<2x3x2xi32>
  %0 = stablehlo.dot_general %c, %d, batching_dims = [2] x [0], contracting_dims = [0] x [1] : (tensor<3x2x2xi32>, tensor<2x3x2xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %0, dense<[[[4, 16], [-2, 16]], [[91, 106], [121, 142]]]> : tensor<2x2x2xi32>
  func.return
}
