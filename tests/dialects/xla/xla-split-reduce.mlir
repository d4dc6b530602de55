// RUN: strata opt %s --split-input-file --xla-split-reduce | FileCheck %s

// GroupNorm's sum over (H, W, C/G) keeping G: the trailing run (C/G) is
// reduced first, one result per contiguous row, then (H, W), where the
// innermost dimension (G) is kept.

// CHECK-LABEL: func.func @group_sum(
// CHECK: %[[ROWS:.*]] = "xla.reduce"(%arg0, %[[INIT:.*]]) ({
// CHECK: "xla.add"
// CHECK: }) {dimensions = array<i64: 4>} : (tensor<1x6x6x4x8xf32>, tensor<f32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[SUM:.*]] = "xla.reduce"(%[[ROWS]], %[[INIT]]) ({
// CHECK: "xla.add"
// CHECK: }) {dimensions = array<i64: 1, 2>} : (tensor<1x6x6x4xf32>, tensor<f32>) -> tensor<1x4xf32>
// CHECK: "func.return"(%[[SUM]])
func.func @group_sum(%x: tensor<1x6x6x4x8xf32>) -> tensor<1x4xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<1x6x6x4x8xf32>, tensor<f32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// A maximum from any init splits too; two trailing reduced dimensions are
// one run.

// CHECK-LABEL: func.func @max_two_trailing(
// CHECK: "xla.reduce"(%arg0, %{{.*}})
// CHECK: }) {dimensions = array<i64: 2, 3>} : (tensor<5x3x4x2xi32>, tensor<i32>) -> tensor<5x3xi32>
// CHECK: "xla.reduce"
// CHECK: }) {dimensions = array<i64: 0>} : (tensor<5x3xi32>, tensor<i32>) -> tensor<3xi32>
func.func @max_two_trailing(%x: tensor<5x3x4x2xi32>) -> tensor<3xi32> {
  %init = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [0, 2, 3] : (tensor<5x3x4x2xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Unchanged: a sum from 1 (split, each partial sum would add it again); a
// bf16 sum (XLA's order is kept); a row reduction (nothing kept between
// reduced dimensions); a reduction whose innermost dimension is kept.

// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-4: "xla.reduce"
// CHECK-NOT: "xla.reduce"
func.func @unchanged(%x: tensor<4x3x8xf32>, %y: tensor<4x3x8xbf16>) -> (tensor<3xf32>, tensor<3xbf16>, tensor<4xf32>, tensor<8xf32>) {
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %bzero = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
  %0 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x3x8xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = stablehlo.reduce(%y init: %bzero) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x3x8xbf16>, tensor<bf16>) -> tensor<3xbf16>
  %2 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1, 2] : (tensor<4x3x8xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xbf16>, tensor<4xf32>, tensor<8xf32>
}
