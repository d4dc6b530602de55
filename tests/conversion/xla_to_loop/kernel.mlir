// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// The kernel dialect's ops are runtime calls: the descriptor becomes a
// module constant of its i64 words (strata_abi::GemmDesc: batch rank, 8
// batch sizes and 3 x 8 batch strides, then m, k, n and the row and column
// strides of lhs, rhs and out; TransposeDesc: element bytes, outer rank, 3 x
// 8 outer sizes and strides, rows, cols, source and destination row
// strides), the operands and the result are passed as buffers, as
// declared in strata_abi::runtime.

// CHECK: func.func private @strata_rt_transpose(memref<0xi8>, memref<0xi8>, memref<0xi8>){{$}}
// CHECK: "mem.global"() {sym_name = "[[T:.*]]", value = dense<[4, 1, 3, 0, 0, 0, 0, 0, 0, 0, 512, 0, 0, 0, 0, 0, 0, 0, 512, 0, 0, 0, 0, 0, 0, 0, 16, 32, 32, 16]> : tensor<30xi64>}
// CHECK: func.func private @strata_rt_gemm_f32(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>){{$}}
// CHECK: "mem.global"() {sym_name = "[[G:.*]]", value = dense<[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 8, 2, 8, 1, 2, 1, 2, 1]> : tensor<42xi64>}

// CHECK-LABEL: func.func @gemm
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[G]]}
// CHECK-NEXT: "func.call"(%[[D]], %arg0, %arg1, %arg2) {callee = @strata_rt_gemm_f32}
// CHECK-NEXT: "func.return"
func.func @gemm(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// The narrow kernels: bf16 -> f32 and i8 -> i32.
// CHECK-LABEL: func.func @gemm_bf16
// CHECK: "func.call"(%{{.*}}, %arg0, %arg1, %arg2) {callee = @strata_rt_gemm_bf16_f32}
func.func @gemm_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xf32> {
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @gemm_s8
// CHECK: "func.call"(%{{.*}}, %arg0, %arg1, %arg2) {callee = @strata_rt_gemm_s8_s32}
func.func @gemm_s8(%a: tensor<4x8xi8>, %b: tensor<8x2xi8>) -> tensor<4x2xi32> {
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xi8>, tensor<8x2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// CHECK-LABEL: func.func @transpose
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[T]]}
// CHECK-NEXT: "func.call"(%[[D]], %arg0, %arg1) {callee = @strata_rt_transpose}
// CHECK-NEXT: "func.return"
func.func @transpose(%a: tensor<3x16x32xf32>) -> tensor<3x32x16xf32> {
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64: 3>, src_outer_strides = array<i64: 512>, dst_outer_strides = array<i64: 512>} : (tensor<3x16x32xf32>) -> tensor<3x32x16xf32>
  return %0 : tensor<3x32x16xf32>
}
