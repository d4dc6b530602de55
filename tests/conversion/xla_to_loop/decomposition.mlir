// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// The decompositions are not lowered to loops: each becomes one call to the
// runtime (runtime/src/linalg.rs) with a constant strata_abi::LinalgDesc in
// i64 words: [element code (F32 11, F64 12, C64 13, C128 14), batch, rows,
// cols, reflectors, flags (LOWER 1 | VECTORS 2), u_cols, vt_rows], then the
// operands' buffers and the results'. The call returns a status, which the
// function returns when non-zero (strata_abi::runtime::SVD says so; the
// declaration carries no attribute).

// CHECK: func.func private @strata_rt_svd(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>) -> i32{{$}}
// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[12, 2, 4, 3, 0, 2, 3, 3]> : tensor<8xi64>}
// CHECK-LABEL: func.func @svd
// CHECK-SAME: (%[[A:.*]]: memref<2x4x3xf64>, %[[S:.*]]: memref<2x3xf64>, %[[U:.*]]: memref<2x4x3xf64>, %[[VT:.*]]: memref<2x3x3xf64>, %[[INFO:.*]]: memref<2xi32>)
// CHECK: %[[DESC:.*]] = "mem.get_global"() {name = @[[D]]}
// CHECK: "func.call"(%[[DESC]], %[[A]], %[[S]], %[[U]], %[[VT]], %[[INFO]]) {callee = @strata_rt_svd}
// CHECK-NOT: "loop.for"
func.func @svd(%a: tensor<2x4x3xf64>) -> (tensor<2x3xf64>, tensor<2x4x3xf64>, tensor<2x3x3xf64>, tensor<2xi32>) {
  %0:4 = "xla.svd"(%a) {full_matrices = false, compute_uv = true} : (tensor<2x4x3xf64>) -> (tensor<2x3xf64>, tensor<2x4x3xf64>, tensor<2x3x3xf64>, tensor<2xi32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<2x3xf64>, tensor<2x4x3xf64>, tensor<2x3x3xf64>, tensor<2xi32>
}

// -----

// Complex eigh of the upper triangle, values only: C64, no flags.

// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[13, 1, 3, 3, 0, 0, 0, 0]> : tensor<8xi64>}
// CHECK-LABEL: func.func @eigvalsh
// CHECK: "func.call"({{.*}}) {callee = @strata_rt_eigh}
func.func @eigvalsh(%a: tensor<3x3xcomplex<f32>>) -> tensor<3xf32> {
  %0:3 = "xla.eigh"(%a) {lower = false, compute_vectors = false} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

// QR: geqrf, then orgqr with its 2 reflectors (complete Q of a 3x2 matrix).

// CHECK-LABEL: func.func @qr
// CHECK: "func.call"({{.*}}) {callee = @strata_rt_householder_qr}
// CHECK: "func.call"({{.*}}) {callee = @strata_rt_householder_product}
func.func @qr(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0:2 = "xla.householder_qr"(%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>)
  %1 = "xla.householder_product"(%0#0, %0#1) : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %1 : tensor<3x3xf32>
}
