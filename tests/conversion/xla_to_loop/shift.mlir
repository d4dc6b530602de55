// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.shift_left / shift_right_logical / shift_right_arithmetic: shift
// amounts >= the bit width (compared as unsigned, so negative amounts count
// too) give 0, or the sign fill for arithmetic right shifts. The amount
// reaching arith.shli / shrui / shrsi is always in range.

// CHECK-LABEL: func.func @shift_left
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[N:.*]] = "mem.load"(%arg1
// CHECK: %[[W:.*]] = "arith.constant"() {value = 32 : i32}
// CHECK: %[[OK:.*]] = "arith.cmpi"(%[[N]], %[[W]]) {predicate = "ult"}
// CHECK: %[[Z:.*]] = "arith.constant"() {value = 0 : i32}
// CHECK: %[[SAFE:.*]] = "arith.select"(%[[OK]], %[[N]], %[[Z]])
// CHECK: %[[S:.*]] = "arith.shli"(%[[X]], %[[SAFE]])
// CHECK: %[[R:.*]] = "arith.select"(%[[OK]], %[[S]], %[[Z]])
// CHECK: "mem.store"(%[[R]], %arg2
func.func @shift_left(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.shift_left %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @shift_right_logical
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[N:.*]] = "mem.load"(%arg1
// CHECK: %[[W:.*]] = "arith.constant"() {value = 16 : ui16}
// CHECK: %[[OK:.*]] = "arith.cmpi"(%[[N]], %[[W]]) {predicate = "ult"}
// CHECK: %[[SAFE:.*]] = "arith.select"(%[[OK]], %[[N]], %{{.*}})
// CHECK: %[[S:.*]] = "arith.shrui"(%[[X]], %[[SAFE]])
// CHECK: %[[R:.*]] = "arith.select"(%[[OK]], %[[S]], %{{.*}})
// CHECK: "mem.store"(%[[R]], %arg2
func.func @shift_right_logical(%a: tensor<4xui16>, %b: tensor<4xui16>) -> tensor<4xui16> {
  %0 = stablehlo.shift_right_logical %a, %b : tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// Arithmetic right shift by >= width shifts by width - 1 (sign fill).

// CHECK-LABEL: func.func @shift_right_arithmetic
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[N:.*]] = "mem.load"(%arg1
// CHECK: %[[W:.*]] = "arith.constant"() {value = 8 : i8}
// CHECK: %[[OK:.*]] = "arith.cmpi"(%[[N]], %[[W]]) {predicate = "ult"}
// CHECK: %[[MAX:.*]] = "arith.constant"() {value = 7 : i8}
// CHECK: %[[AMT:.*]] = "arith.select"(%[[OK]], %[[N]], %[[MAX]])
// CHECK: %[[S:.*]] = "arith.shrsi"(%[[X]], %[[AMT]])
// CHECK: "mem.store"(%[[S]], %arg2
func.func @shift_right_arithmetic(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi8>
  return %0 : tensor<4xi8>
}
