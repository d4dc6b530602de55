// RUN: strata opt %s --convert-xla-to-loop | strata opt /dev/stdin | FileCheck %s

// The output of the conversion is valid input: constants it creates (here the
// +inf of xla.is_finite) print in a form the parser reads back.

// CHECK-LABEL: func.func @is_finite
// CHECK: %[[INF:.*]] = "arith.constant"() {value = 0x7F800000 : f32} : () -> f32
// CHECK: %[[ABS:.*]] = "arith.absf"
// CHECK: "arith.cmpf"(%[[ABS]], %[[INF]]) {predicate = "one"}
func.func @is_finite(%a: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
