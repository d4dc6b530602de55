// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not strata compile %S/quantized-types.mlir -o %t.so 2>&1 | FileCheck %s --check-prefix=FIRST
// Malformed quantized types are located errors; quantized values the
// lowering does not cover are reported as unsupported.

// FIRST: quantized-types.mlir:[[@LINE+2]]:{{[0-9]+}}: error: a quantization scale must be positive and finite
// CHECK: quantized-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: a quantization scale must be positive and finite
func.func @zero_scale(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0:1>> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.0:1>>
  return %q : tensor<2x!quant.uniform<i8:f32, 0.0:1>>
}

// -----

// CHECK: quantized-types.mlir:[[@LINE+2]]:{{[0-9]+}}: error: zero point 300 is outside the storage range
func.func @zero_point(%x: tensor<2xf32>) -> tensor<2xf32> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:300>>
  return %x : tensor<2xf32>
}

// -----

// CHECK: quantized-types.mlir:[[@LINE+2]]:{{[0-9]+}}: error: the storage type of a quantized type must be an integer
func.func @float_storage(%x: tensor<2xf32>) -> tensor<2xf32> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<f16:f32, 0.5>>
  return %x : tensor<2xf32>
}

// -----

// CHECK: quantized-types.mlir:[[@LINE+2]]:{{[0-9]+}}: error: storage range -200:100 does not fit the storage type
func.func @range(%x: tensor<2xf32>) -> tensor<2xf32> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8<-200:100>:f32, 0.5>>
  return %x : tensor<2xf32>
}

// -----

func.func @axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: quantized-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'xla.uniform_quantize' op quantization axis 1 with 2 scales does not fit shape [2, 3]
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25}>>
  return %x : tensor<2x3xf32>
}

// -----

func.func @dequantize_type(%x: tensor<2xi8>) -> tensor<2xf64> {
  %q = "stablehlo.bitcast_convert"(%x) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  // CHECK: quantized-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'xla.uniform_dequantize' op produces the expressed floats, of the operand's shape
  %r = "stablehlo.uniform_dequantize"(%q) : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf64>
  return %r : tensor<2xf64>
}
