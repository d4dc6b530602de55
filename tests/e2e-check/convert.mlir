// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}9 passed, 0 failed{{$}}

// xla.convert corner cases: float -> int truncates toward zero and saturates
// out-of-range values (infinities included) to the target's limits; NaN
// becomes 0. Int -> int wraps (two's complement, sign- or zero-extending by
// the source's signedness). Float -> bool is `x != 0` (NaN is true). Expected
// values computed with jax.lax.convert_element_type on CPU.

func.func @f32_to_i32() {
  %x = stablehlo.constant dense<[1.0e+10, -1.0e+10, 0x7FC00000, 0x7F800000, 0xFF800000, 2.7, -2.7, 2147483520.0]> : tensor<8xf32>
  %0 = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xi32>
  check.expect_eq_const %0, dense<[2147483647, -2147483648, 0, 2147483647, -2147483648, 2, -2, 2147483520]> : tensor<8xi32>
  func.return
}

// -----

func.func @f32_to_ui8() {
  %x = stablehlo.constant dense<[-1.0, 300.0, 0x7FC00000, 255.9, 0.5, -0.9, 0x7F800000]> : tensor<7xf32>
  %0 = stablehlo.convert %x : (tensor<7xf32>) -> tensor<7xui8>
  check.expect_eq_const %0, dense<[0, 255, 0, 255, 0, 0, 255]> : tensor<7xui8>
  func.return
}

// -----

func.func @f32_to_i8() {
  %x = stablehlo.constant dense<[-129.0, 128.0, 0x7FC00000, -1.0e+30, 127.5]> : tensor<5xf32>
  %0 = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xi8>
  check.expect_eq_const %0, dense<[-128, 127, 0, -128, 127]> : tensor<5xi8>
  func.return
}

// -----

func.func @f64_to_64bit() {
  %x = stablehlo.constant dense<[1.0e+19, -1.0e+19, 0x7FF8000000000000, 9.2233720368547748e+18]> : tensor<4xf64>
  %0 = stablehlo.convert %x : (tensor<4xf64>) -> tensor<4xi64>
  check.expect_eq_const %0, dense<[9223372036854775807, -9223372036854775808, 0, 9223372036854774784]> : tensor<4xi64>
  %y = stablehlo.constant dense<[-5.0, 2.0e+19, 0x7FF8000000000000]> : tensor<3xf64>
  %1 = stablehlo.convert %y : (tensor<3xf64>) -> tensor<3xui64>
  check.expect_eq_const %1, dense<[0, 18446744073709551615, 0]> : tensor<3xui64>
  func.return
}

// -----

func.func @f32_to_ui32() {
  %x = stablehlo.constant dense<[-5.0, 5.0e+09, 0x7FC00000, 4294967040.0]> : tensor<4xf32>
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xui32>
  check.expect_eq_const %0, dense<[0, 4294967295, 0, 4294967040]> : tensor<4xui32>
  func.return
}

// -----

// f32 -> f16 rounds to nearest even and overflows to infinity.
func.func @f32_to_f16() {
  %x = stablehlo.constant dense<[70000.0, -70000.0, 1.0e-08, 65519.0, 65520.0]> : tensor<5xf32>
  %0 = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xf16>
  check.expect_eq_const %0, dense<[0x7C00, 0xFC00, 0.0, 65504.0, 0x7C00]> : tensor<5xf16>
  func.return
}

// -----

func.func @float_to_bool() {
  %x = stablehlo.constant dense<[0x7FC00000, 0.0, -0.0, 2.0]> : tensor<4xf32>
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %0, dense<[true, false, false, true]> : tensor<4xi1>
  func.return
}

// -----

func.func @int_to_int() {
  %x = stablehlo.constant dense<[-1, 256, 300, -129]> : tensor<4xi32>
  %0 = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xui8>
  %1 = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xi8>
  check.expect_eq_const %0, dense<[255, 0, 44, 127]> : tensor<4xui8>
  check.expect_eq_const %1, dense<[-1, 0, 44, 127]> : tensor<4xi8>
  %u = stablehlo.constant dense<[255, 128]> : tensor<2xui8>
  %2 = stablehlo.convert %u : (tensor<2xui8>) -> tensor<2xi32>
  check.expect_eq_const %2, dense<[255, 128]> : tensor<2xi32>
  %s = stablehlo.constant dense<[-1, -128]> : tensor<2xi8>
  %3 = stablehlo.convert %s : (tensor<2xi8>) -> tensor<2xui32>
  check.expect_eq_const %3, dense<[4294967295, 4294967168]> : tensor<2xui32>
  func.return
}

// -----

func.func @int_to_float() {
  %x = stablehlo.constant dense<[16777217, -16777217, 2147483647]> : tensor<3xi32>
  %0 = stablehlo.convert %x : (tensor<3xi32>) -> tensor<3xf32>
  check.expect_eq_const %0, dense<[16777216.0, -16777216.0, 2147483648.0]> : tensor<3xf32>
  %u = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>
  %1 = stablehlo.convert %u : (tensor<1xui64>) -> tensor<1xf32>
  check.expect_eq_const %1, dense<[18446744073709551616.0]> : tensor<1xf32>
  func.return
}
