// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}5 passed, 0 failed{{$}}

// Half-precision arithmetic rounds every result to the 16-bit format (round
// to nearest even, overflow to infinity). Values are given as bit patterns;
// expected values computed with jax on CPU.

func.func @f16_arith() {
  // [65504, 1, 0.1, 2048, -0] and [32, 2^-10, 0.2, 1, 0]
  %a = stablehlo.constant dense<[0x7BFF, 0x3C00, 0x2E66, 0x6800, 0x8000]> : tensor<5xf16>
  %b = stablehlo.constant dense<[0x5000, 0x1400, 0x3266, 0x3C00, 0x0000]> : tensor<5xf16>
  %0 = stablehlo.add %a, %b : tensor<5xf16>
  %1 = stablehlo.multiply %a, %b : tensor<5xf16>
  %2 = stablehlo.divide %a, %b : tensor<5xf16>
  // 65504 + 32 overflows; 2048 + 1 rounds to even (2048).
  check.expect_eq_const %0, dense<[0x7C00, 0x3C01, 0x34CC, 0x6800, 0x0000]> : tensor<5xf16>
  check.expect_eq_const %1, dense<[0x7C00, 0x1400, 0x251E, 0x6800, 0x8000]> : tensor<5xf16>
  check.expect_eq_const %2, dense<[0x67FF, 0x6400, 0x3800, 0x6800, 0xFE00]> : tensor<5xf16>
  func.return
}

// -----

func.func @bf16_arith() {
  // [1, 256, 3.0e38, 0.1] and [2^-8, 1, 3.0e38, 0.2]
  %a = stablehlo.constant dense<[0x3F80, 0x4380, 0x7F62, 0x3DCD]> : tensor<4xbf16>
  %b = stablehlo.constant dense<[0x3B80, 0x3F80, 0x7F62, 0x3E4D]> : tensor<4xbf16>
  %0 = stablehlo.add %a, %b : tensor<4xbf16>
  %1 = stablehlo.multiply %a, %b : tensor<4xbf16>
  // 1 + 2^-8 is a tie and rounds to even (1.0); 256 + 1 rounds to 256.
  check.expect_eq_const %0, dense<[0x3F80, 0x4380, 0x7F80, 0x3E9A]> : tensor<4xbf16>
  check.expect_eq_const %1, dense<[0x3B80, 0x4380, 0x7F80, 0x3CA4]> : tensor<4xbf16>
  func.return
}

// -----

func.func @bf16_sqrt() {
  %a = stablehlo.constant dense<[2.0, 0.01]> : tensor<2xbf16>
  %0 = stablehlo.sqrt %a : tensor<2xbf16>
  check.expect_eq_const %0, dense<[0x3FB5, 0x3DCD]> : tensor<2xbf16>
  func.return
}

// -----

func.func @half_transcendental() {
  %a = stablehlo.constant dense<[1.0, 11.0, -20.0]> : tensor<3xf16>
  %0 = stablehlo.exponential %a : tensor<3xf16>
  %f = stablehlo.constant dense<[0x4170, 0x7B4F, 0x0000]> : tensor<3xf16>
  check.expect_close %0, %f, max_ulp_difference = 1 : tensor<3xf16>, tensor<3xf16>
  %b = stablehlo.constant dense<[0.5, 3.0]> : tensor<2xbf16>
  %1 = stablehlo.tanh %b : tensor<2xbf16>
  %e = stablehlo.constant dense<[0x3EED, 0x3F7F]> : tensor<2xbf16>
  check.expect_close %1, %e, max_ulp_difference = 1 : tensor<2xbf16>, tensor<2xbf16>
  func.return
}

// -----

func.func @half_conversions() {
  // f16 [65504, 0.1, 6e-8 (subnormal)] -> bf16; bf16 [1e5, 0.1, 1e-8] -> f16
  %a = stablehlo.constant dense<[0x7BFF, 0x2E66, 0x0001]> : tensor<3xf16>
  %0 = stablehlo.convert %a : (tensor<3xf16>) -> tensor<3xbf16>
  check.expect_eq_const %0, dense<[0x4780, 0x3DCD, 0x3380]> : tensor<3xbf16>
  %b = stablehlo.constant dense<[1.0e+05, 0.1, 1.0e-08]> : tensor<3xbf16>
  %1 = stablehlo.convert %b : (tensor<3xbf16>) -> tensor<3xf16>
  check.expect_eq_const %1, dense<[0x7C00, 0x2E68, 0x0000]> : tensor<3xf16>
  func.return
}
