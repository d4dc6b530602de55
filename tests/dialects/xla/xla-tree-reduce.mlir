// RUN: strata opt %s --split-input-file --xla-tree-reduce | FileCheck %s

// A bf16 sum over 3000 elements: windows of 32 (3000 -> 94, padded 4 + 4),
// then of the 94 results (-> 3, padded 1 + 1), then the original reduce.
// CHECK-LABEL: func.func @long_row
// CHECK: %[[INIT:.*]] = "xla.constant"
// CHECK: %[[L1:.*]] = "xla.reduce_window"(%{{.*}}, %[[INIT]])
// CHECK: "xla.add"
// CHECK: {window_dimensions = array<i64: 1, 32>, window_strides = array<i64: 1, 32>, padding = dense<{{\[\[}}0, 0], [4, 4]]> : tensor<2x2xi64>} : (tensor<2x3000xbf16>, tensor<bf16>) -> tensor<2x94xbf16>
// CHECK: %[[L2:.*]] = "xla.reduce_window"(%[[L1]], %[[INIT]])
// CHECK: padding = dense<{{\[\[}}0, 0], [1, 1]]> : tensor<2x2xi64>} : (tensor<2x94xbf16>, tensor<bf16>) -> tensor<2x3xbf16>
// CHECK: "xla.reduce"(%[[L2]], %[[INIT]])
// CHECK: (tensor<2x3xbf16>, tensor<bf16>) -> tensor<2xbf16>
func.func @long_row(%a: tensor<2x3000xbf16>) -> tensor<2xbf16> {
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3000xbf16>, tensor<bf16>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

// Several reduced dimensions: a short one (10) is windowed whole; the long
// one (100 -> 4 windows, padded 14 + 14); the kept dimension gets window 1.
// CHECK-LABEL: func.func @two_dims
// CHECK: "xla.reduce_window"
// CHECK: {window_dimensions = array<i64: 1, 10, 32>, window_strides = array<i64: 1, 10, 32>, padding = dense<{{\[\[}}0, 0], [0, 0], [14, 14]]> : tensor<3x2xi64>} : (tensor<5x10x100xf16>, tensor<f16>) -> tensor<5x1x4xf16>
// CHECK-NOT: "xla.reduce_window"
// CHECK: "xla.reduce"
func.func @two_dims(%a: tensor<5x10x100xf16>) -> tensor<5xf16> {
  %z = stablehlo.constant dense<0.0> : tensor<f16>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1, 2] : (tensor<5x10x100xf16>, tensor<f16>) -> tensor<5xf16>
  return %0 : tensor<5xf16>
}

// -----

// f32 reductions, short narrow ones and multi-input reductions stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: "xla.reduce_window"
func.func @unchanged(%a: tensor<3000xf32>, %b: tensor<32xbf16>) -> (tensor<f32>, tensor<bf16>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.constant dense<0.0> : tensor<bf16>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3000xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%b init: %zb) applies stablehlo.add across dimensions = [0] : (tensor<32xbf16>, tensor<bf16>) -> tensor<bf16>
  return %0, %1 : tensor<f32>, tensor<bf16>
}

// -----

// An operand without elements is left alone (found by the `lower` fuzzer:
// a window over the empty dimension made an invalid reduce_window).
// CHECK-LABEL: func.func @empty_operand
// CHECK-NOT: xla.reduce_window
// CHECK: "xla.reduce"
func.func @empty_operand(%x: tensor<5x375x1x0xf16>, %init: tensor<f16>) -> tensor<5x1xf16> {
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.multiply across dimensions = [1, 3] : (tensor<5x375x1x0xf16>, tensor<f16>) -> tensor<5x1xf16>
  return %r : tensor<5x1xf16>
}
