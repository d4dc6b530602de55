// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of uniform_quantize and uniform_dequantize, per-tensor and per-axis.

// CHECK-LABEL: func.func @per_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @per_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Q:.*]] = "xla.uniform_quantize"(%[[X]]) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.25:-3>>
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.25:-3>>
  // Requantization to another scale.
  // CHECK: %[[R:.*]] = "xla.uniform_quantize"(%[[Q]]) : (tensor<4x!quant.uniform<i8:f32, 0.25:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<4x!quant.uniform<i8:f32, 0.25:-3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  // CHECK: %[[D:.*]] = "xla.uniform_dequantize"(%[[R]]) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  // CHECK: "func.return"(%[[D]])
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @per_axis
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @per_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[Q:.*]] = "xla.uniform_quantize"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25,2.0:-7}>>
  %0 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25,2.0:-7}>>
  // CHECK: %[[D:.*]] = "xla.uniform_dequantize"(%[[Q]]) : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25,2.0:-7}>>) -> tensor<2x3xf32>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.25,2.0:-7}>>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[D]])
  return %1 : tensor<2x3xf32>
}
