// RUN: strata opt %s --split-input-file --xla-conv-phases | FileCheck %s

// A 1-D transposed convolution (lhs_dilation 2, kernel 3, padding 1 and 1,
// output 7): output 2m takes tap 1 of x[m], output 2m + 1 taps 0 and 2 of
// x[m] and x[m + 1]. Two convolutions of the undilated input with those
// taps (kernel slices with stride 2); the odd phase (3 positions) is padded
// to 4, the phases interleaved through a unit dimension, and the excess
// position sliced off.

// CHECK-LABEL: func.func @transposed_1d(
// CHECK: %[[ZERO:.*]] = "xla.constant"() {value = dense<0.0> : tensor<f32>}
// CHECK: %[[W0:.*]] = "xla.slice"(%arg1) {start_indices = array<i64: 1, 0, 0>, limit_indices = array<i64: 3, 2, 1>, strides = array<i64: 2, 1, 1>} : (tensor<3x2x1xf32>) -> tensor<1x2x1xf32>
// CHECK: %[[Y0:.*]] = "xla.convolution"(%arg0, %[[W0]])
// CHECK-SAME: padding = dense<{{\[\[0, 0\]\]}}> : tensor<1x2xi64>, lhs_dilation = array<i64: 1>}
// CHECK-SAME: -> tensor<1x4x1xf32>
// CHECK: %[[W1:.*]] = "xla.slice"(%arg1) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 3, 2, 1>, strides = array<i64: 2, 1, 1>} : (tensor<3x2x1xf32>) -> tensor<2x2x1xf32>
// CHECK: %[[Y1:.*]] = "xla.convolution"(%arg0, %[[W1]])
// CHECK-SAME: -> tensor<1x3x1xf32>
// CHECK: %[[P1:.*]] = "xla.pad"(%[[Y1]], %[[ZERO]]) {edge_padding_low = array<i64: 0, 0, 0>, edge_padding_high = array<i64: 0, 1, 0>
// CHECK: %[[U0:.*]] = "xla.reshape"(%[[Y0]]) : (tensor<1x4x1xf32>) -> tensor<1x4x1x1xf32>
// CHECK: %[[U1:.*]] = "xla.reshape"(%[[P1]]) : (tensor<1x4x1xf32>) -> tensor<1x4x1x1xf32>
// CHECK: %[[J:.*]] = "xla.concatenate"(%[[U0]], %[[U1]]) {dimension = 2 : i64} : (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x2x1xf32>
// CHECK: %[[M:.*]] = "xla.reshape"(%[[J]]) : (tensor<1x4x2x1xf32>) -> tensor<1x8x1xf32>
// CHECK: %[[R:.*]] = "xla.slice"(%[[M]]) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 7, 1>
// CHECK-NOT: lhs_dilation = array<i64: 2>
// CHECK: "func.return"(%[[R]])
func.func @transposed_1d(%x: tensor<1x4x2xf32>, %w: tensor<3x2x1xf32>) -> tensor<1x7x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x1xf32>) -> tensor<1x7x1xf32>
  return %0 : tensor<1x7x1xf32>
}

// -----

// 2-D, stride 2 both ways: four phase convolutions, interleaved along the
// last spatial dimension, then the first.

// CHECK-LABEL: func.func @transposed_2d(
// CHECK-COUNT-4: "xla.convolution"
// CHECK: "xla.concatenate"({{.*}}) {dimension = 3 : i64} : (tensor<1x4x4x1x3xf32>, tensor<1x4x4x1x3xf32>) -> tensor<1x4x4x2x3xf32>
// CHECK: "xla.concatenate"({{.*}}) {dimension = 3 : i64}
// CHECK: "xla.concatenate"({{.*}}) {dimension = 2 : i64} : (tensor<1x4x1x8x3xf32>, tensor<1x4x1x8x3xf32>) -> tensor<1x4x2x8x3xf32>
// CHECK: %[[R:.*]] = "xla.reshape"({{.*}}) : (tensor<1x4x2x8x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK: "func.return"(%[[R]])
func.func @transposed_2d(%x: tensor<1x4x4x2xf32>, %w: tensor<4x4x2x3xf32>) -> tensor<1x8x8x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<4x4x2x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

// Unchanged: a window stride besides the dilation; a kernel smaller than
// the dilation (some phases have no taps); more than 64 phases (a dilation
// of 128: the model's attributes could ask for millions).

// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-2: lhs_dilation = array<i64: 2>
// CHECK: lhs_dilation = array<i64: 128>
// CHECK-NOT: "xla.slice"
func.func @unchanged(%x: tensor<1x4x2xf32>, %w: tensor<3x2x1xf32>, %v: tensor<1x2x1xf32>, %y: tensor<1x2x1xf32>, %k: tensor<130x1x1xf32>) -> (tensor<1x4x1xf32>, tensor<1x7x1xf32>, tensor<1x258x1xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x1xf32>) -> tensor<1x4x1xf32>
  %1 = stablehlo.convolution(%x, %v) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 0]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<1x2x1xf32>) -> tensor<1x7x1xf32>
  %2 = stablehlo.convolution(%y, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[129, 129]], lhs_dilate = [128]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x1xf32>, tensor<130x1x1xf32>) -> tensor<1x258x1xf32>
  return %0, %1, %2 : tensor<1x4x1xf32>, tensor<1x7x1xf32>, tensor<1x258x1xf32>
}
