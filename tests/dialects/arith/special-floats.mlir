// RUN: strata opt %s | FileCheck %s
// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Scalar float attributes that have no decimal spelling (infinities, NaN)
// are written as their bit pattern in the attribute's own type, as MLIR does,
// and must survive a round trip. The lowering of xla.is_finite creates such a
// constant, so `strata opt --convert-xla-to-loop` output must parse again.

// CHECK-LABEL: func.func @special
func.func @special() {
  // CHECK: "arith.constant"() {value = 0x7F800000 : f32} : () -> f32
  %0 = "arith.constant"() {value = 0x7F800000 : f32} : () -> f32
  // CHECK: "arith.constant"() {value = 0xFFF0000000000000 : f64} : () -> f64
  %1 = "arith.constant"() {value = 0xFFF0000000000000 : f64} : () -> f64
  // CHECK: "arith.constant"() {value = 0x7FC00000 : f32} : () -> f32
  %2 = "arith.constant"() {value = 0x7FC00000 : f32} : () -> f32
  // CHECK: "arith.constant"() {value = 0x7C00 : f16} : () -> f16
  %3 = "arith.constant"() {value = 0x7C00 : f16} : () -> f16
  // CHECK: "arith.constant"() {value = -0.0 : f32} : () -> f32
  %4 = "arith.constant"() {value = -0.0 : f32} : () -> f32
  func.return
}
