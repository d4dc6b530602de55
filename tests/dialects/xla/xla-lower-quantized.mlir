// RUN: strata opt %s --xla-lower-quantized | FileCheck %s
// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s --check-prefix=ROUND

// Quantized types print and parse back (per axis, a narrowed storage range,
// zero points left out when 0).
// ROUND: tensor<2x3x!quant.uniform<i8<-100:100>:f32:1, {0.5:3,0.25,2.0:-7}>>
// ROUND: tensor<2x!quant.uniform<i8:f32, 0.5:-20>>

// quantize: x / scale + zero point (per axis: broadcast along dimension 1),
// rounded half to even, clamped to the storage range, converted.
// CHECK-LABEL: func.func @per_axis
// CHECK: %[[S:.*]] = "xla.constant"() {value = dense<[0.5, 0.25, 2.0]> : tensor<3xf32>}
// CHECK: "xla.broadcast_in_dim"(%[[S]]) {broadcast_dimensions = array<i64: 1>}
// CHECK: "xla.divide"
// CHECK: "xla.add"
// CHECK: "xla.round_nearest_even"
// CHECK: "xla.constant"() {value = dense<-100.0> : tensor<2x3xf32>}
// CHECK: "xla.maximum"
// CHECK: "xla.minimum"
// CHECK: "xla.convert"{{.*}} -> tensor<2x3xi8>
// CHECK-NOT: quant.uniform
func.func @per_axis(%x: tensor<2x3xf32>) -> tensor<2x3xi8> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8<-100:100>:f32:1, {0.5:3,0.25,2.0:-7}>>
  %r = "stablehlo.bitcast_convert"(%q) : (tensor<2x3x!quant.uniform<i8<-100:100>:f32:1, {0.5:3,0.25,2.0:-7}>>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}

// An element-wise op on quantized operands: dequantized ((q - zp) * scale),
// computed on f32, the result quantized to its own type.
// CHECK-LABEL: func.func @add
// CHECK: "xla.subtract"
// CHECK: "xla.multiply"
// CHECK: %[[SUM:.*]] = "xla.add"({{.*}}) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: "xla.divide"(%[[SUM]]
// CHECK-NOT: quant.uniform
func.func @add(%a: tensor<2xi8>, %b: tensor<2xi8>) -> tensor<2xi8> {
  %qa = "stablehlo.bitcast_convert"(%a) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %qb = "stablehlo.bitcast_convert"(%b) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %s = "stablehlo.add"(%qa, %qb) : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %r = "stablehlo.bitcast_convert"(%s) : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  return %r : tensor<2xi8>
}
