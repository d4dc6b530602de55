// RUN: strata opt %s --xla-reciprocal-divisor | FileCheck %s

// Softmax's division by each row's sum: one reciprocal per row, broadcast
// and multiplied (XLA's A / broadcast(B) => A * broadcast(1 / B)).
// CHECK-LABEL: func.func @per_row
// CHECK: %[[ONE:.*]] = "xla.constant"() {value = dense<1.0> : tensor<4xf32>}
// CHECK: %[[R:.*]] = "xla.divide"(%[[ONE]], %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = "xla.broadcast_in_dim"(%[[R]]) {broadcast_dimensions = array<i64: 0>}
// CHECK: "xla.multiply"(%arg0, %[[B]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: xla.broadcast_in_dim"(%arg1)
func.func @per_row(%e: tensor<4x8xf32>, %sum: tensor<4xf32>) -> tensor<4x8xf32> {
  %b = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %q = stablehlo.divide %e, %b : tensor<4x8xf32>
  return %q : tensor<4x8xf32>
}

// A scalar constant (x / 2.83): the same, the reciprocal of a scalar.
// CHECK-LABEL: func.func @by_constant
// CHECK: "xla.divide"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: "xla.multiply"
func.func @by_constant(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c = stablehlo.constant dense<2.83> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<16xf32>
  %q = stablehlo.divide %x, %b : tensor<16xf32>
  return %q : tensor<16xf32>
}

// f64 too (XLA's quotients measured with x64 enabled).
// CHECK-LABEL: func.func @f64
// CHECK: %[[ONE:.*]] = "xla.constant"() {value = dense<1.0> : tensor<4xf64>}
// CHECK: "xla.divide"(%[[ONE]], %arg1) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
// CHECK: "xla.multiply"
func.func @f64(%d: tensor<4x8xf64>, %s: tensor<4xf64>) -> tensor<4x8xf64> {
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf64>) -> tensor<4x8xf64>
  %c = stablehlo.divide %d, %sb : tensor<4x8xf64>
  return %c : tensor<4x8xf64>
}

// Two full arrays: an exact division, as in XLA. A broadcast that keeps
// every element stays a division; so do bf16 (XLA's quotients are the
// exact ones, rounded) and f16 (not measured).
// CHECK-LABEL: func.func @stays
// CHECK-NOT: xla.multiply
// CHECK: return
func.func @stays(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %r: tensor<32xf32>, %g: tensor<4x8xbf16>, %u: tensor<4xbf16>, %h: tensor<4x8xf16>, %t: tensor<4xf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf16>) {
  %a = stablehlo.divide %x, %y : tensor<4x8xf32>
  %rr = stablehlo.reshape %r : (tensor<32xf32>) -> tensor<4x8xf32>
  %b = stablehlo.divide %x, %rr : tensor<4x8xf32>
  %ub = stablehlo.broadcast_in_dim %u, dims = [0] : (tensor<4xbf16>) -> tensor<4x8xbf16>
  %c = stablehlo.divide %g, %ub : tensor<4x8xbf16>
  %tb = stablehlo.broadcast_in_dim %t, dims = [0] : (tensor<4xf16>) -> tensor<4x8xf16>
  %e = stablehlo.divide %h, %tb : tensor<4x8xf16>
  return %a, %b, %c, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf16>
}

// CHECK-LABEL: func.func @broadcast_used_twice
// CHECK: %[[OLD:.*]] = "xla.broadcast_in_dim"(%arg1)
// CHECK: "xla.multiply"(%arg0,
// CHECK: "xla.add"(%arg0, %[[OLD]])
func.func @broadcast_used_twice(%x: tensor<4x8xf32>, %s: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %q = stablehlo.divide %x, %b : tensor<4x8xf32>
  %p = stablehlo.add %x, %b : tensor<4x8xf32>
  return %q, %p : tensor<4x8xf32>, tensor<4x8xf32>
}
