// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}4 passed, 0 failed{{$}}

// XLA's shifts: an amount >= the bit width, or negative (taken as unsigned),
// gives 0 for shift_left and shift_right_logical and the sign fill for
// shift_right_arithmetic (which looks at the top bit even for unsigned types).
// Expected values computed with jax.lax on CPU.

func.func @shifts_i8() {
  %x = stablehlo.constant dense<[1, -1, -128, 64, 1, -1, -128, 5]> : tensor<8xi8>
  %n = stablehlo.constant dense<[8, 8, 9, -1, 7, 100, 7, 2]> : tensor<8xi8>
  %0 = stablehlo.shift_left %x, %n : tensor<8xi8>
  %1 = stablehlo.shift_right_arithmetic %x, %n : tensor<8xi8>
  %2 = stablehlo.shift_right_logical %x, %n : tensor<8xi8>
  check.expect_eq_const %0, dense<[0, 0, 0, 0, -128, 0, 0, 20]> : tensor<8xi8>
  check.expect_eq_const %1, dense<[0, -1, -1, 0, 0, -1, -1, 1]> : tensor<8xi8>
  check.expect_eq_const %2, dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xi8>
  func.return
}

// -----

func.func @shifts_ui8() {
  %x = stablehlo.constant dense<[1, 255, 128, 3, 255]> : tensor<5xui8>
  %n = stablehlo.constant dense<[8, 7, 255, 1, 0]> : tensor<5xui8>
  %0 = stablehlo.shift_left %x, %n : tensor<5xui8>
  %1 = stablehlo.shift_right_arithmetic %x, %n : tensor<5xui8>
  %2 = stablehlo.shift_right_logical %x, %n : tensor<5xui8>
  check.expect_eq_const %0, dense<[0, 128, 0, 6, 255]> : tensor<5xui8>
  check.expect_eq_const %1, dense<[0, 255, 255, 1, 255]> : tensor<5xui8>
  check.expect_eq_const %2, dense<[0, 1, 0, 1, 255]> : tensor<5xui8>
  func.return
}

// -----

func.func @shifts_i32() {
  %x = stablehlo.constant dense<[1, -1, -2147483648, 12345, -5]> : tensor<5xi32>
  %n = stablehlo.constant dense<[32, 31, 33, -32, 1]> : tensor<5xi32>
  %0 = stablehlo.shift_left %x, %n : tensor<5xi32>
  %1 = stablehlo.shift_right_arithmetic %x, %n : tensor<5xi32>
  %2 = stablehlo.shift_right_logical %x, %n : tensor<5xi32>
  check.expect_eq_const %0, dense<[0, -2147483648, 0, 0, -10]> : tensor<5xi32>
  check.expect_eq_const %1, dense<[0, -1, -1, 0, -3]> : tensor<5xi32>
  check.expect_eq_const %2, dense<[0, 1, 0, 0, 2147483645]> : tensor<5xi32>
  func.return
}

// -----

func.func @shifts_i64() {
  %x = stablehlo.constant dense<[1, -1, 3]> : tensor<3xi64>
  %n = stablehlo.constant dense<[64, 63, -1]> : tensor<3xi64>
  %0 = stablehlo.shift_left %x, %n : tensor<3xi64>
  %1 = stablehlo.shift_right_arithmetic %x, %n : tensor<3xi64>
  %2 = stablehlo.shift_right_logical %x, %n : tensor<3xi64>
  check.expect_eq_const %0, dense<[0, -9223372036854775808, 0]> : tensor<3xi64>
  check.expect_eq_const %1, dense<[0, -1, 0]> : tensor<3xi64>
  check.expect_eq_const %2, dense<[0, 1, 0]> : tensor<3xi64>
  func.return
}
