// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of fft, CHLO's top_k and CHLO's ragged_dot.

// CHECK-LABEL: func.func @fft
// CHECK-SAME: (%[[A:.*]]: tensor<3x8xf32>, %[[C:.*]]: tensor<3x5xcomplex<f32>>, %[[Z:.*]]: tensor<4x6xcomplex<f64>>)
func.func @fft(%a: tensor<3x8xf32>, %c: tensor<3x5xcomplex<f32>>, %z: tensor<4x6xcomplex<f64>>) -> (tensor<3x5xcomplex<f32>>, tensor<3x8xf32>, tensor<3x5xcomplex<f32>>, tensor<4x6xcomplex<f64>>) {
  // CHECK: %[[R:.*]] = "xla.fft"(%[[A]]) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  // CHECK: %[[I:.*]] = "xla.fft"(%[[C]]) {fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>} : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  %1 = stablehlo.fft %c, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  // CHECK: %[[F:.*]] = "xla.fft"(%[[C]]) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 5>} : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  %2 = stablehlo.fft %c, type = FFT, length = [5] : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  // CHECK: %[[G:.*]] = "xla.fft"(%[[Z]]) {fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 4, 6>} : (tensor<4x6xcomplex<f64>>) -> tensor<4x6xcomplex<f64>>
  %3 = stablehlo.fft %z, type = IFFT, length = [4, 6] : (tensor<4x6xcomplex<f64>>) -> tensor<4x6xcomplex<f64>>
  // CHECK: "func.return"(%[[R]], %[[I]], %[[F]], %[[G]])
  return %0, %1, %2, %3 : tensor<3x5xcomplex<f32>>, tensor<3x8xf32>, tensor<3x5xcomplex<f32>>, tensor<4x6xcomplex<f64>>
}

// CHECK-LABEL: func.func @top_k
// CHECK-SAME: (%[[X:.*]]: tensor<2x5xf32>)
func.func @top_k(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  // CHECK: %[[T:.*]]:2 = "xla.top_k"(%[[X]]) {k = 3 : i64} : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %0:2 = chlo.top_k(%x, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  // CHECK: "func.return"(%[[T]]#0, %[[T]]#1)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func @ragged_dot
// CHECK-SAME: (%[[L:.*]]: tensor<6x4xf32>, %[[R:.*]]: tensor<3x4x5xf32>, %[[G:.*]]: tensor<3xi64>)
func.func @ragged_dot(%lhs: tensor<6x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi64>) -> tensor<6x5xf32> {
  // CHECK: %[[D:.*]] = "xla.ragged_dot"(%[[L]], %[[R]], %[[G]])
  // CHECK-SAME: {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1 : i64], rhs_contracting_dimensions = [1 : i64], lhs_ragged_dimensions = [0 : i64], rhs_group_dimensions = [0 : i64]>,
  // CHECK-SAME: precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]}
  // CHECK-SAME: : (tensor<6x4xf32>, tensor<3x4x5xf32>, tensor<3xi64>) -> tensor<6x5xf32>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]
  } : (tensor<6x4xf32>, tensor<3x4x5xf32>, tensor<3xi64>) -> tensor<6x5xf32>
  // CHECK: "func.return"(%[[D]])
  return %0 : tensor<6x5xf32>
}
