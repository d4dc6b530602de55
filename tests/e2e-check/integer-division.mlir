// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}6 passed, 0 failed{{$}}

// XLA's integer division and remainder, including the cases that are
// undefined behaviour in C and LLVM: x / 0 = -1 (all ones), x % 0 = x,
// INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0. Division truncates toward zero
// and the remainder takes the dividend's sign. Expected values computed with
// jax.lax.div / jax.lax.rem on CPU.

func.func @divide_i32() {
  %a = stablehlo.constant dense<[7, -7, 7, -7, -2147483648, -2147483648, 5, 0]> : tensor<8xi32>
  %b = stablehlo.constant dense<[2, 2, -2, 0, -1, 0, 0, 0]> : tensor<8xi32>
  %0 = stablehlo.divide %a, %b : tensor<8xi32>
  check.expect_eq_const %0, dense<[3, -3, -3, -1, -2147483648, -1, -1, -1]> : tensor<8xi32>
  func.return
}

// -----

func.func @remainder_i32() {
  %a = stablehlo.constant dense<[7, -7, 7, -7, -2147483648, -2147483648, 5, 0]> : tensor<8xi32>
  %b = stablehlo.constant dense<[2, 2, -2, 0, -1, 0, 0, 0]> : tensor<8xi32>
  %0 = stablehlo.remainder %a, %b : tensor<8xi32>
  check.expect_eq_const %0, dense<[1, -1, 1, -7, 0, -2147483648, 5, 0]> : tensor<8xi32>
  func.return
}

// -----

func.func @divide_remainder_ui8() {
  %a = stablehlo.constant dense<[7, 255, 0, 200]> : tensor<4xui8>
  %b = stablehlo.constant dense<[0, 0, 0, 7]> : tensor<4xui8>
  %0 = stablehlo.divide %a, %b : tensor<4xui8>
  %1 = stablehlo.remainder %a, %b : tensor<4xui8>
  check.expect_eq_const %0, dense<[255, 255, 255, 28]> : tensor<4xui8>
  check.expect_eq_const %1, dense<[7, 255, 0, 4]> : tensor<4xui8>
  func.return
}

// -----

func.func @divide_remainder_i8() {
  %a = stablehlo.constant dense<[-128, -128, 127, -1]> : tensor<4xi8>
  %b = stablehlo.constant dense<[-1, 0, 0, 3]> : tensor<4xi8>
  %0 = stablehlo.divide %a, %b : tensor<4xi8>
  %1 = stablehlo.remainder %a, %b : tensor<4xi8>
  check.expect_eq_const %0, dense<[-128, -1, -1, 0]> : tensor<4xi8>
  check.expect_eq_const %1, dense<[0, -128, 127, -1]> : tensor<4xi8>
  func.return
}

// -----

func.func @divide_remainder_i64() {
  %a = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807, -9]> : tensor<3xi64>
  %b = stablehlo.constant dense<[-1, 0, 4]> : tensor<3xi64>
  %0 = stablehlo.divide %a, %b : tensor<3xi64>
  %1 = stablehlo.remainder %a, %b : tensor<3xi64>
  check.expect_eq_const %0, dense<[-9223372036854775808, -1, -2]> : tensor<3xi64>
  check.expect_eq_const %1, dense<[0, 9223372036854775807, -1]> : tensor<3xi64>
  func.return
}

// -----

// The divisor is a function result computed at run time, so nothing folds.
func.func @divide_by_computed_zero() {
  %a = stablehlo.constant dense<[10, -10]> : tensor<2xi32>
  %z = stablehlo.subtract %a, %a : tensor<2xi32>
  %0 = stablehlo.divide %a, %z : tensor<2xi32>
  %1 = stablehlo.remainder %a, %z : tensor<2xi32>
  check.expect_eq_const %0, dense<[-1, -1]> : tensor<2xi32>
  check.expect_eq_const %1, dense<[10, -10]> : tensor<2xi32>
  func.return
}
