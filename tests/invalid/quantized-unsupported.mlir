// RUN: not strata opt %s --split-input-file --xla-lower-quantized 2>&1 | FileCheck %s
// Quantized values the lowering does not cover (yet) are located
// "unsupported" errors, never wrong code.

// CHECK: quantized-unsupported.mlir:[[@LINE+1]]:1: error: unsupported: quantized function arguments or results
func.func @argument(%q: tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32> {
  %r = "stablehlo.uniform_dequantize"(%q) : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @reshape(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  // CHECK: quantized-unsupported.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unsupported: quantized types on 'xla.reshape' op
  %r = stablehlo.reshape %q : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %f = "stablehlo.uniform_dequantize"(%r) : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2xf32>
  return %f : tensor<2x2xf32>
}
