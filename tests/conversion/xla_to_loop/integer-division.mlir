// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.divide / xla.remainder on integers: the conversion guards the divisor so
// that no undefined behaviour reaches arith.divsi / arith.remsi, and selects
// XLA's results: x / 0 = -1 (all ones), x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0.

// CHECK-LABEL: func.func @divide_signed
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[Y:.*]] = "mem.load"(%arg1
// CHECK-DAG: %[[ZERO:.*]] = "arith.constant"() {value = 0 : i32}
// CHECK-DAG: %[[ONE:.*]] = "arith.constant"() {value = 1 : i32}
// CHECK-DAG: %[[MIN:.*]] = "arith.constant"() {value = -2147483648 : i32}
// CHECK-DAG: %[[M1:.*]] = "arith.constant"() {value = -1 : i32}
// CHECK-DAG: %[[ISZERO:.*]] = "arith.cmpi"(%[[Y]], %[[ZERO]]) {predicate = "eq"}
// CHECK-DAG: %[[ISMIN:.*]] = "arith.cmpi"(%[[X]], %[[MIN]]) {predicate = "eq"}
// CHECK-DAG: %[[ISM1:.*]] = "arith.cmpi"(%[[Y]], %[[M1]]) {predicate = "eq"}
// CHECK: %[[OVF:.*]] = "arith.andi"(%[[ISMIN]], %[[ISM1]])
// CHECK: %[[BAD:.*]] = "arith.ori"(%[[ISZERO]], %[[OVF]])
// CHECK: %[[SAFE:.*]] = "arith.select"(%[[BAD]], %[[ONE]], %[[Y]])
// CHECK: %[[Q:.*]] = "arith.divsi"(%[[X]], %[[SAFE]])
// CHECK: %[[ONES:.*]] = "arith.constant"() {value = -1 : i32}
// CHECK: %[[R:.*]] = "arith.select"(%[[ISZERO]], %[[ONES]], %[[Q]])
// CHECK: "mem.store"(%[[R]], %arg2
func.func @divide_signed(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.divide %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @remainder_signed
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[Y:.*]] = "mem.load"(%arg1
// CHECK: %[[ISZERO:.*]] = "arith.cmpi"(%[[Y]], %{{.*}}) {predicate = "eq"}
// CHECK: %[[SAFE:.*]] = "arith.select"(%{{.*}}, %{{.*}}, %[[Y]])
// CHECK: %[[REM:.*]] = "arith.remsi"(%[[X]], %[[SAFE]]) : (i64, i64) -> i64
// CHECK: %[[R:.*]] = "arith.select"(%[[ISZERO]], %[[X]], %[[REM]])
// CHECK: "mem.store"(%[[R]], %arg2
func.func @remainder_signed(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = stablehlo.remainder %a, %b : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// Unsigned division has no overflow case, only the zero guard.

// CHECK-LABEL: func.func @divide_unsigned
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[Y:.*]] = "mem.load"(%arg1
// CHECK: %[[ISZERO:.*]] = "arith.cmpi"(%[[Y]], %{{.*}}) {predicate = "eq"} : (ui8, ui8) -> i1
// CHECK-NOT: "arith.andi"
// CHECK: %[[SAFE:.*]] = "arith.select"(%[[ISZERO]], %{{.*}}, %[[Y]])
// CHECK: %[[Q:.*]] = "arith.divui"(%[[X]], %[[SAFE]]) : (ui8, ui8) -> ui8
// CHECK: %[[ONES:.*]] = "arith.constant"() {value = 255 : ui8}
// CHECK: %[[R:.*]] = "arith.select"(%[[ISZERO]], %[[ONES]], %[[Q]])
// CHECK: "mem.store"(%[[R]], %arg2
func.func @divide_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = stablehlo.divide %a, %b : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// CHECK-LABEL: func.func @remainder_unsigned
// CHECK: %[[X:.*]] = "mem.load"(%arg0
// CHECK: %[[ISZERO:.*]] = "arith.cmpi"
// CHECK: %[[REM:.*]] = "arith.remui"(%[[X]], %{{.*}}) : (ui16, ui16) -> ui16
// CHECK: %[[R:.*]] = "arith.select"(%[[ISZERO]], %[[X]], %[[REM]])
func.func @remainder_unsigned(%a: tensor<4xui16>, %b: tensor<4xui16>) -> tensor<4xui16> {
  %0 = stablehlo.remainder %a, %b : tensor<4xui16>
  return %0 : tensor<4xui16>
}

// -----

// Float division needs no guard.

// CHECK-LABEL: func.func @divide_float
// CHECK-NOT: "arith.cmpf"
// CHECK: "arith.divf"
// CHECK-NOT: "arith.select"
// CHECK: "mem.store"
func.func @divide_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.divide %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
