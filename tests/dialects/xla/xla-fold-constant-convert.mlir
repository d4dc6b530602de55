// RUN: strata opt %s --split-input-file --xla-fold-constant-convert | FileCheck %s

// Integer to integer: the divisor of jnp's floor_divide (i32 2 as ui32),
// a wrap to unsigned, zero and sign extension, to i1 (nonzero is true),
// from i1, a truncation (300 as ui8 is 44). The converts go; the old
// constants are left to xla-remove-dead-ops.

// CHECK-LABEL: func.func @ints
// CHECK-NOT: "xla.convert"
// CHECK: %[[TWO:.*]] = "xla.constant"() {value = dense<2> : tensor<ui32>}
// CHECK: "xla.broadcast_in_dim"(%[[TWO]])
// CHECK: %[[WRAP:.*]] = "xla.constant"() {value = dense<4294967295> : tensor<ui32>}
// CHECK: %[[ZEXT:.*]] = "xla.constant"() {value = dense<4294967295> : tensor<i64>}
// CHECK: %[[SEXT:.*]] = "xla.constant"() {value = dense<-128> : tensor<i64>}
// CHECK: %[[PRED:.*]] = "xla.constant"() {value = dense<[false, true, true]> : tensor<3xi1>}
// CHECK: %[[ONE:.*]] = "xla.constant"() {value = dense<1> : tensor<i32>}
// CHECK: %[[TRUNC:.*]] = "xla.constant"() {value = dense<44> : tensor<ui8>}
// CHECK: "func.return"(%{{.*}}, %[[WRAP]], %[[ZEXT]], %[[SEXT]], %[[PRED]], %[[ONE]], %[[TRUNC]])
func.func @ints() -> (tensor<4xui32>, tensor<ui32>, tensor<i64>, tensor<i64>, tensor<3xi1>, tensor<i32>, tensor<ui8>) {
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %0 = stablehlo.convert %c2 : (tensor<i32>) -> tensor<ui32>
  %b = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<4xui32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %1 = stablehlo.convert %m1 : (tensor<i32>) -> tensor<ui32>
  %u = stablehlo.constant dense<4294967295> : tensor<ui32>
  %2 = stablehlo.convert %u : (tensor<ui32>) -> tensor<i64>
  %s = stablehlo.constant dense<-128> : tensor<i8>
  %3 = stablehlo.convert %s : (tensor<i8>) -> tensor<i64>
  %v = stablehlo.constant dense<[0, 7, -9]> : tensor<3xi64>
  %4 = stablehlo.convert %v : (tensor<3xi64>) -> tensor<3xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %5 = stablehlo.convert %t : (tensor<i1>) -> tensor<i32>
  %w = stablehlo.constant dense<300> : tensor<i32>
  %6 = stablehlo.convert %w : (tensor<i32>) -> tensor<ui8>
  return %b, %1, %2, %3, %4, %5, %6 : tensor<4xui32>, tensor<ui32>, tensor<i64>, tensor<i64>, tensor<3xi1>, tensor<i32>, tensor<ui8>
}

// -----

// Integer to float rounds to nearest even (2^24 + 1 is 2^24 in f32), f64
// to f32 rounds, f32 to f64 is exact. Float to integer, to bf16, and a NaN
// (its payload) are not folded.

// CHECK-LABEL: func.func @floats
// CHECK: %[[I:.*]] = "xla.constant"() {value = dense<16777216.0> : tensor<f32>}
// CHECK: %[[D:.*]] = "xla.constant"() {value = dense<[0.1, -2.5]> : tensor<2xf32>}
// CHECK: %[[F:.*]] = "xla.constant"() {value = dense<0.1> : tensor<f32>}
// CHECK: %[[W:.*]] = "xla.constant"() {value = dense<0.10000000149011612> : tensor<f64>}
// CHECK: %[[TOI:.*]] = "xla.convert"(%[[F]]) : (tensor<f32>) -> tensor<i32>
// CHECK: %[[TOBF:.*]] = "xla.convert"(%[[F]]) : (tensor<f32>) -> tensor<bf16>
// CHECK: %[[NAN:.*]] = "xla.convert"(%{{.*}}) : (tensor<f64>) -> tensor<f32>
// CHECK: "func.return"(%[[I]], %[[D]], %[[W]], %[[TOI]], %[[TOBF]], %[[NAN]])
func.func @floats() -> (tensor<f32>, tensor<2xf32>, tensor<f64>, tensor<i32>, tensor<bf16>, tensor<f32>) {
  %i = stablehlo.constant dense<16777217> : tensor<i32>
  %0 = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
  %d = stablehlo.constant dense<[0.1, -2.5]> : tensor<2xf64>
  %1 = stablehlo.convert %d : (tensor<2xf64>) -> tensor<2xf32>
  %f = stablehlo.constant dense<0.1> : tensor<f32>
  %2 = stablehlo.convert %f : (tensor<f32>) -> tensor<f64>
  %3 = stablehlo.convert %f : (tensor<f32>) -> tensor<i32>
  %4 = stablehlo.convert %f : (tensor<f32>) -> tensor<bf16>
  %n = stablehlo.constant dense<0x7FF8000000000001> : tensor<f64>
  %5 = stablehlo.convert %n : (tensor<f64>) -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<f32>, tensor<2xf32>, tensor<f64>, tensor<i32>, tensor<bf16>, tensor<f32>
}
