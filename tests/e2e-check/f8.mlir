// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}2 passed, 0 failed{{$}}

// f8 arithmetic rounds each result to the 8-bit format (E4M3FN has no
// infinities: overflow gives NaN, 0x7F). Expected values from XLA:CPU.

func.func @f8E4M3FN() {
  %a = stablehlo.constant dense<[0x38, 0x77, 0x2A, 0xFE, 0x44]> : tensor<5xf8E4M3FN>
  %b = stablehlo.constant dense<[0x20, 0x77, 0x2A, 0xB8, 0x18]> : tensor<5xf8E4M3FN>
  %0 = stablehlo.add %a, %b : tensor<5xf8E4M3FN>
  %1 = stablehlo.multiply %a, %b : tensor<5xf8E4M3FN>
  %2 = stablehlo.convert %a : (tensor<5xf8E4M3FN>) -> tensor<5xf32>
  check.expect_eq_const %0, dense<[0x39, 0x7F, 0x32, 0xFE, 0x44]> : tensor<5xf8E4M3FN>
  check.expect_eq_const %1, dense<[0x20, 0x7F, 0x1C, 0x7E, 0x24]> : tensor<5xf8E4M3FN>
  check.expect_eq_const %2, dense<[1.0, 240.0, 0.3125, -448.0, 3.0]> : tensor<5xf32>
  func.return
}
// -----
func.func @f8E5M2() {
  %a = stablehlo.constant dense<[0x3C, 0x5C, 0x35, 0xDF, 0x42]> : tensor<5xf8E5M2>
  %b = stablehlo.constant dense<[0x30, 0x5C, 0x35, 0xBC, 0x2C]> : tensor<5xf8E5M2>
  %0 = stablehlo.add %a, %b : tensor<5xf8E5M2>
  %1 = stablehlo.multiply %a, %b : tensor<5xf8E5M2>
  %2 = stablehlo.convert %a : (tensor<5xf8E5M2>) -> tensor<5xf32>
  check.expect_eq_const %0, dense<[0x3C, 0x60, 0x39, 0xDF, 0x42]> : tensor<5xf8E5M2>
  check.expect_eq_const %1, dense<[0x30, 0x7C, 0x2E, 0x5F, 0x32]> : tensor<5xf8E5M2>
  check.expect_eq_const %2, dense<[1.0, 256.0, 0.3125, -448.0, 3.0]> : tensor<5xf32>
  func.return
}
