// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}4 passed, 0 failed{{$}}

// xla.maximum / xla.minimum on floats propagate NaN from either side and order
// -0 below +0 (IEEE 754 maximum/minimum). Expected values computed with
// jax.lax.max / jax.lax.min on CPU; signs of zeros are checked on the bits.

func.func @max_min_nan() {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, 0x7F800000, 0xFF800000, 2.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0x7FC00000, 1.0, 3.0]> : tensor<5xf32>
  %0 = stablehlo.maximum %a, %b : tensor<5xf32>
  %1 = stablehlo.minimum %a, %b : tensor<5xf32>
  check.expect_eq_const %0, dense<[0x7FC00000, 0x7FC00000, 0x7FC00000, 1.0, 3.0]> : tensor<5xf32>
  check.expect_eq_const %1, dense<[0x7FC00000, 0x7FC00000, 0x7FC00000, 0xFF800000, 2.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @max_min_signed_zero() {
  %a = stablehlo.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %0 = stablehlo.maximum %a, %b : tensor<2xf32>
  %1 = stablehlo.minimum %a, %b : tensor<2xf32>
  %2 = stablehlo.bitcast_convert %0 : (tensor<2xf32>) -> tensor<2xi32>
  %3 = stablehlo.bitcast_convert %1 : (tensor<2xf32>) -> tensor<2xi32>
  check.expect_eq_const %2, dense<[0, 0]> : tensor<2xi32>
  check.expect_eq_const %3, dense<[-2147483648, -2147483648]> : tensor<2xi32>
  func.return
}

// -----

// The same through a reduction: a NaN anywhere makes the max NaN.
func.func @reduce_max_nan() {
  %a = stablehlo.constant dense<[[1.0, 0x7FF8000000000000, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64>
  %init = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf64>, tensor<f64>) -> tensor<2xf64>
  check.expect_eq_const %0, dense<[0x7FF8000000000000, 6.0]> : tensor<2xf64>
  func.return
}

// -----

// clamp(min, x, max) = min(max(x, min), max) propagates a NaN operand.
func.func @clamp_nan() {
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %x = stablehlo.constant dense<[-1.0, 0.5, 2.0, 0x7FC00000]> : tensor<4xf32>
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %0, dense<[0.0, 0.5, 1.0, 0x7FC00000]> : tensor<4xf32>
  func.return
}
