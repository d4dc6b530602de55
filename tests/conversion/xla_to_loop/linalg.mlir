// RUN: strata opt %s --xla-lapack-custom-calls --convert-xla-to-loop | FileCheck %s

// Linear algebra. A triangular_solve of f32/f64 is the runtime's
// (XLA:CPU's expansion, bit for bit) with a strata_abi::LinalgDesc (element
// code 11 f32, batch 1, 3 x 2 right-hand sides, flags LEFT_SIDE | LOWER =
// 9); its status is checked by codegen. cholesky is a loop nest: the input
// copied to the result, then the lower factor column by column, the
// diagonal a square root, below it a division by it; a non-positive pivot
// records the first failing column.
// LAPACK's trsm (a custom call JAX emits; side R, uplo U, trans T, diag U:
// flags UPPER (0) | TRANSPOSE_A 16 | UNIT 32 = 48; b 2 x 3 x 4) is the
// runtime's blocked trsm; so are an f32 lu (getrf: element code 11,
// batch 1, 3 x 3) and potrf (below). A complex lu is getrf's loop nest: per column, the pivot of
// largest magnitude (|re| + |im|; a strictly greater one wins, as LAPACK's
// icamax), its 1-based row in the pivots, the rows swapped and the column
// below divided by the pivot.

// CHECK-DAG: func.func private @strata_rt_triangular_solve(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>) -> i32{{$}}
// CHECK-DAG: func.func private @strata_rt_trsm(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>) -> i32{{$}}
// CHECK-DAG: func.func private @strata_rt_potrf(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>) -> i32{{$}}
// CHECK-DAG: "mem.global"() {sym_name = "[[POTRF:.*]]", value = dense<[11, 1, 5, 5, 0, 1, 0, 0]> : tensor<8xi64>}
// CHECK-DAG: func.func private @strata_rt_getrf(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>) -> i32{{$}}
// CHECK-DAG: "mem.global"() {sym_name = "[[TRSM:.*]]", value = dense<[11, 2, 3, 4, 0, 48, 0, 0]> : tensor<8xi64>}
// CHECK-DAG: "mem.global"() {sym_name = "[[GETRF:.*]]", value = dense<[11, 1, 3, 3, 0, 0, 0, 0]> : tensor<8xi64>}
// CHECK-DAG: "mem.global"() {sym_name = "[[G:.*]]", value = dense<[11, 1, 3, 2, 0, 9, 0, 0]> : tensor<8xi64>}
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
// CHECK: %[[L:.*]] = "mem.get_global"() {name = @[[GETRF]]} : () -> memref<8xi64>
// CHECK-NEXT: "func.call"(%[[L]], %arg0, %[[LU]], %[[PIV]], %[[INFO]]) {callee = @strata_rt_getrf}
// CHECK-LABEL: func.func @trsm
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[TRSM]]} : () -> memref<8xi64>
// CHECK-NEXT: "func.call"(%[[D]], %arg0, %arg1, %arg2) {callee = @strata_rt_trsm}
// CHECK-LABEL: func.func @lu_complex
// CHECK-SAME: (%arg0: memref<3x3xcomplex<f32>>, %[[LU:.*]]: memref<3x3xcomplex<f32>>, %[[PIV:.*]]: memref<3xi32>, %[[INFO:.*]]: memref<i32>)
// CHECK: "loop.for"
// CHECK: "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = "ogt"}
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
func.func @trsm(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
func.func @lu_complex(%a: tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xi32>, tensor<i32>) {
  %0:3 = "xla.lu"(%a) : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xi32>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<3x3xcomplex<f32>>, tensor<3xi32>, tensor<i32>
}
// LAPACK's potrf (uplo 'L': LINALG_LOWER 1) is the runtime's blocked
// potrf; its info is the call's last buffer.
// CHECK-LABEL: func.func @potrf
// CHECK: %[[P:.*]] = "mem.get_global"() {name = @[[POTRF]]} : () -> memref<8xi64>
// CHECK-NEXT: "func.call"(%[[P]], %arg0, %arg1, %arg2) {callee = @strata_rt_potrf}
func.func @potrf(%a: tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<i32>) {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<5x5xf32>, tensor<i32>
}
