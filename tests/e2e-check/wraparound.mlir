// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}7 passed, 0 failed{{$}}

// Integer arithmetic wraps around (two's complement) at every width,
// including the sub-byte i4/ui4 that are stored one per byte. Expected values
// computed with jax on CPU (and, for popcnt on i4, from the StableHLO spec:
// XLA:CPU counts the bits of the sign-extended byte there).

func.func @ui8() {
  %u = stablehlo.constant dense<[250, 255, 0, 128]> : tensor<4xui8>
  %v = stablehlo.constant dense<[10, 1, 1, 2]> : tensor<4xui8>
  %0 = stablehlo.add %u, %v : tensor<4xui8>
  %1 = stablehlo.subtract %v, %u : tensor<4xui8>
  %2 = stablehlo.multiply %u, %v : tensor<4xui8>
  %3 = stablehlo.negate %u : tensor<4xui8>
  check.expect_eq_const %0, dense<[4, 0, 1, 130]> : tensor<4xui8>
  check.expect_eq_const %1, dense<[16, 2, 1, 130]> : tensor<4xui8>
  check.expect_eq_const %2, dense<[196, 255, 0, 0]> : tensor<4xui8>
  check.expect_eq_const %3, dense<[6, 1, 0, 128]> : tensor<4xui8>
  func.return
}

// -----

func.func @i8() {
  %i = stablehlo.constant dense<[-128, 127, -1, 100]> : tensor<4xi8>
  %one = stablehlo.constant dense<1> : tensor<4xi8>
  %two = stablehlo.constant dense<2> : tensor<4xi8>
  %0 = stablehlo.abs %i : tensor<4xi8>
  %1 = stablehlo.negate %i : tensor<4xi8>
  %2 = stablehlo.add %i, %one : tensor<4xi8>
  %3 = stablehlo.multiply %i, %two : tensor<4xi8>
  check.expect_eq_const %0, dense<[-128, 127, 1, 100]> : tensor<4xi8>
  check.expect_eq_const %1, dense<[-128, -127, 1, -100]> : tensor<4xi8>
  check.expect_eq_const %2, dense<[-127, -128, 0, 101]> : tensor<4xi8>
  check.expect_eq_const %3, dense<[0, -2, -2, -56]> : tensor<4xi8>
  func.return
}

// -----

func.func @i32() {
  %max = stablehlo.constant dense<[2147483647]> : tensor<1xi32>
  %one = stablehlo.constant dense<[1]> : tensor<1xi32>
  %big = stablehlo.constant dense<[65536]> : tensor<1xi32>
  %0 = stablehlo.add %max, %one : tensor<1xi32>
  %1 = stablehlo.multiply %big, %big : tensor<1xi32>
  check.expect_eq_const %0, dense<[-2147483648]> : tensor<1xi32>
  check.expect_eq_const %1, dense<[0]> : tensor<1xi32>
  func.return
}

// -----

func.func @i4() {
  %a = stablehlo.constant dense<[7, -8, 5, -3]> : tensor<4xi4>
  %b = stablehlo.constant dense<[1, -1, 5, -6]> : tensor<4xi4>
  %0 = stablehlo.add %a, %b : tensor<4xi4>
  %1 = stablehlo.subtract %a, %b : tensor<4xi4>
  %2 = stablehlo.multiply %a, %b : tensor<4xi4>
  %3 = stablehlo.negate %a : tensor<4xi4>
  check.expect_eq_const %0, dense<[-8, 7, -6, 7]> : tensor<4xi4>
  check.expect_eq_const %1, dense<[6, -7, 0, 3]> : tensor<4xi4>
  check.expect_eq_const %2, dense<[7, -8, -7, 2]> : tensor<4xi4>
  check.expect_eq_const %3, dense<[-7, -8, -5, 3]> : tensor<4xi4>
  func.return
}

// -----

func.func @ui4() {
  %a = stablehlo.constant dense<[15, 8, 0, 3]> : tensor<4xui4>
  %b = stablehlo.constant dense<[1, 8, 1, 5]> : tensor<4xui4>
  %0 = stablehlo.add %a, %b : tensor<4xui4>
  %1 = stablehlo.subtract %a, %b : tensor<4xui4>
  %2 = stablehlo.multiply %a, %b : tensor<4xui4>
  %3 = stablehlo.divide %a, %b : tensor<4xui4>
  check.expect_eq_const %0, dense<[0, 0, 1, 8]> : tensor<4xui4>
  check.expect_eq_const %1, dense<[14, 0, 15, 14]> : tensor<4xui4>
  check.expect_eq_const %2, dense<[15, 0, 0, 15]> : tensor<4xui4>
  check.expect_eq_const %3, dense<[15, 1, 0, 0]> : tensor<4xui4>
  func.return
}

// -----

func.func @i4_bits() {
  %a = stablehlo.constant dense<[-1, 0, 7, -8]> : tensor<4xi4>
  %0 = stablehlo.popcnt %a : tensor<4xi4>
  %1 = stablehlo.count_leading_zeros %a : tensor<4xi4>
  check.expect_eq_const %0, dense<[4, 0, 3, 1]> : tensor<4xi4>
  check.expect_eq_const %1, dense<[0, 4, 1, 0]> : tensor<4xi4>
  %x = stablehlo.constant dense<[1, 7, -8]> : tensor<3xi4>
  %n = stablehlo.constant dense<[3, 4, 1]> : tensor<3xi4>
  %2 = stablehlo.shift_left %x, %n : tensor<3xi4>
  check.expect_eq_const %2, dense<[-8, 0, 0]> : tensor<3xi4>
  %y = stablehlo.constant dense<[-8, 7, -1]> : tensor<3xi4>
  %m = stablehlo.constant dense<[3, 4, 7]> : tensor<3xi4>
  %3 = stablehlo.shift_right_arithmetic %y, %m : tensor<3xi4>
  check.expect_eq_const %3, dense<[-1, 0, -1]> : tensor<3xi4>
  func.return
}

// -----

func.func @i4_division() {
  %a = stablehlo.constant dense<[-8, 7, 5]> : tensor<3xi4>
  %b = stablehlo.constant dense<[-1, 0, 2]> : tensor<3xi4>
  %0 = stablehlo.divide %a, %b : tensor<3xi4>
  %1 = stablehlo.remainder %a, %b : tensor<3xi4>
  check.expect_eq_const %0, dense<[-8, -1, 2]> : tensor<3xi4>
  check.expect_eq_const %1, dense<[0, 7, 1]> : tensor<3xi4>
  func.return
}
