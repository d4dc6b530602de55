// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of convolution: JAX's pretty layout and window syntax, and the generic form.

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[L:.*]]: tensor<1x4x4x2xf32>, %[[K:.*]]: tensor<3x3x2x4xf32>)
func.func @conv2d(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x2x4xf32>) -> tensor<1x3x4x4xf32> {
  // CHECK: %[[C:.*]] = "xla.convolution"(%[[L]], %[[K]])
  // CHECK-SAME: {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>,
  // CHECK-SAME: window_strides = array<i64: 2, 1>, padding = dense<{{\[\[}}1, -1], [2, 0]]> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i64: 1, 0>,
  // CHECK-SAME: batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}
  // CHECK-SAME: : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x4x4xf32>
  %0 = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, -1], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: "func.return"(%[[C]])
  return %0 : tensor<1x3x4x4xf32>
}

// A depthwise 1-D convolution in channels-first layout, with only some window
// attributes.
// CHECK-LABEL: func.func @conv1d_grouped
// CHECK-SAME: (%[[L:.*]]: tensor<2x2x5xf32>, %[[K:.*]]: tensor<4x1x2xf32>)
func.func @conv1d_grouped(%a: tensor<2x2x5xf32>, %k: tensor<4x1x2xf32>) -> tensor<2x4x4xf32> {
  // CHECK: %[[C:.*]] = "xla.convolution"(%[[L]], %[[K]])
  // CHECK-SAME: {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = [2 : i64], kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = [2 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = [2 : i64]>,
  // CHECK-SAME: rhs_dilation = array<i64: 1>, batch_group_count = 1 : i64, feature_group_count = 2 : i64}
  // CHECK-SAME: : (tensor<2x2x5xf32>, tensor<4x1x2xf32>) -> tensor<2x4x4xf32>
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x2x5xf32>, tensor<4x1x2xf32>) -> tensor<2x4x4xf32>
  // CHECK: "func.return"(%[[C]])
  return %0 : tensor<2x4x4xf32>
}

// The generic form keeps window_reversal as an i1 array.
// CHECK-LABEL: func.func @conv_generic
// CHECK-SAME: (%[[L:.*]]: tensor<1x4x2xf32>, %[[K:.*]]: tensor<3x2x4xf32>)
func.func @conv_generic(%lhs: tensor<1x4x2xf32>, %rhs: tensor<3x2x4xf32>) -> tensor<1x2x4xf32> {
  // CHECK: %[[C:.*]] = "xla.convolution"(%[[L]], %[[K]])
  // CHECK-SAME: {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 2 : i64, input_spatial_dimensions = [1 : i64], kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 2 : i64, kernel_spatial_dimensions = [0 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 2 : i64, output_spatial_dimensions = [1 : i64]>,
  // CHECK-SAME: feature_group_count = 1 : i64, window_reversal = array<i1: true>, window_strides = array<i64: 1>}
  // CHECK-SAME: : (tensor<1x4x2xf32>, tensor<3x2x4xf32>) -> tensor<1x2x4xf32>
  %0 = "stablehlo.convolution"(%lhs, %rhs) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_reversal = array<i1: true>, window_strides = array<i64: 1>}> : (tensor<1x4x2xf32>, tensor<3x2x4xf32>) -> tensor<1x2x4xf32>
  // CHECK: "func.return"(%[[C]])
  return %0 : tensor<1x2x4xf32>
}
