// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// Linear algebra. A triangular_solve of f32/f64 is the runtime's
// (XLA:CPU's expansion, bit for bit) with a strata_abi::LinalgDesc (element
// code 11 f32, batch 1, 3 x 2 right-hand sides, flags LEFT_SIDE | LOWER =
// 9); its status is checked by codegen. cholesky is a loop nest: the input
// copied to the result, then the lower factor column by column, the
// diagonal a square root, below it a division by it; a non-positive pivot
// records the first failing column.
// lu is getrf's loop nest: per column, the pivot of largest magnitude (a
// strictly greater one wins, as LAPACK's isamax), its 1-based row in the
// pivots, the rows swapped and the column below divided by the pivot.

// CHECK: func.func private @strata_rt_triangular_solve(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>) -> i32{{$}}
// CHECK: "mem.global"() {sym_name = "[[G:.*]]", value = dense<[11, 1, 3, 2, 0, 9, 0, 0]> : tensor<8xi64>}
// CHECK-LABEL: func.func @triangular_solve
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[G]]}
// CHECK-NEXT: "func.call"(%[[D]], %arg0, %arg1, %arg2) {callee = @strata_rt_triangular_solve}

// CHECK-LABEL: func.func @cholesky
// CHECK: %[[X:.*]] = "mem.load"(%arg0, %[[I:[^,]*]], %[[J:[^)]*]])
// CHECK-NEXT: "mem.store"(%[[X]], %arg1, %[[I]], %[[J]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[K:.*]]: index):
// CHECK: "arith.mulf"
// CHECK: "arith.subf"
// CHECK: "loop.if"
// CHECK: "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = "ogt"}
// CHECK: %[[R:.*]] = "arith.sqrt"
// CHECK: "mem.store"(%[[R]], %arg1, %[[K]], %[[K]])
// CHECK: "arith.divf"

// CHECK-LABEL: func.func @lu
// CHECK-SAME: (%arg0: memref<3x3xf32>, %[[LU:.*]]: memref<3x3xf32>, %[[PIV:.*]]: memref<3xi32>, %[[INFO:.*]]: memref<i32>)
// CHECK: "arith.absf"
// CHECK: "loop.for"
// CHECK: "arith.absf"
// CHECK: "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = "ogt"}
// CHECK: "arith.index_cast"
// CHECK: "mem.store"(%{{.*}}, %[[PIV]], %{{.*}}) : (i32, memref<3xi32>, index)
// CHECK: "arith.divf"

func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @cholesky(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
func.func @lu(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>) {
  %0:3 = "xla.lu"(%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<3x3xf32>, tensor<3xi32>, tensor<i32>
}
