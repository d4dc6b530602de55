// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// kernel.gemm round-trips with its descriptor.
// CHECK-LABEL: func.func @gemm
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 1, 8>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64: 3>, lhs_batch_strides = array<i64: 32>, rhs_batch_strides = array<i64: 0>, out_batch_strides = array<i64: 8>} : (tensor<3x4x8xf32>, tensor<2x8xf32>) -> tensor<3x4x2xf32>
func.func @gemm(%a: tensor<3x4x8xf32>, %b: tensor<2x8xf32>) -> tensor<3x4x2xf32> {
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 1, 8>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64: 3>, lhs_batch_strides = array<i64: 32>, rhs_batch_strides = array<i64: 0>, out_batch_strides = array<i64: 8>} : (tensor<3x4x8xf32>, tensor<2x8xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// kernel.transpose round-trips with its descriptor.
// CHECK-LABEL: func.func @transpose
// CHECK: "kernel.transpose"(%arg0) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64: 3>, src_outer_strides = array<i64: 512>, dst_outer_strides = array<i64: 512>} : (tensor<3x16x32xf32>) -> tensor<3x32x16xf32>
func.func @transpose(%a: tensor<3x16x32xf32>) -> tensor<3x32x16xf32> {
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64: 3>, src_outer_strides = array<i64: 512>, dst_outer_strides = array<i64: 512>} : (tensor<3x16x32xf32>) -> tensor<3x32x16xf32>
  return %0 : tensor<3x32x16xf32>
}

// kernel.conv round-trips with the convolution's attributes and the choice.
// CHECK-LABEL: func.func @conv
// CHECK: "kernel.conv"(%arg0, %arg1) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 1, 1>, padding = dense<{{\[\[}}1, 1], [1, 1]]> : tensor<2x2xi64>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 32, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
func.func @conv(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = "kernel.conv"(%x, %k) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 32, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
