// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not strata compile %s -o %t.so 2>&1 | FileCheck %s --check-prefix=EXIT

// Convolution attributes that once crashed the parser or overflowed shape
// inference (issue: trustworthy artifacts). Each is a located error.
// EXIT: error:
// EXIT-NOT: panicked

// A spatial index past the layout's rank allocated a vector of that size.
func.func @huge_spatial_index(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:56: error: spatial dimension index must be below 1 and appear once
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 9223372036854775807, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @index_too_large_for_usize(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: error: spatial dimension index must be below 1 and appear once
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 99999999999999999999999, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @repeated_index(%a: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // CHECK: error: spatial dimension index must be below 2 and appear once
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Strides and dilations near 2^63 overflowed the output size computation.
func.func @huge_stride(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x1x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op window_strides [9223372036854775807] must have 1 positive entries (at most 2^48)
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [9223372036854775807]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x1x2xf32>
  return %0 : tensor<1x1x2xf32>
}

// -----

func.func @huge_dilation(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x1x2xf32> {
  // CHECK: error: 'xla.convolution' op lhs_dilation [4611686018427387904] must have 1 positive entries (at most 2^48)
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [4611686018427387904]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x1x2xf32>
  return %0 : tensor<1x1x2xf32>
}

// -----

func.func @most_negative_padding(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x1x2xf32> {
  // CHECK: error: 'xla.convolution' op padding entries must lie in [-2^48, 2^48]
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[-9223372036854775808, 9223372036854775807]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x1x2xf32>
  return %0 : tensor<1x1x2xf32>
}

// -----

// Large but valid attributes: the exact result size (here 2^48 + 1 elements
// along the spatial dimension) is too large, reported rather than wrapped.
func.func @result_too_large(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x1x2xf32> {
  // CHECK: error: 'xla.convolution' op spatial dimension 0 of the result would exceed 2^48 elements
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[281474976710656, 281474976710656]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x1x2xf32>
  return %0 : tensor<1x1x2xf32>
}
