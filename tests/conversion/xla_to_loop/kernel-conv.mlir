// RUN: strata opt %s --split-input-file --convert-xla-to-kernel --convert-xla-to-loop | FileCheck %s

// `kernel.conv` (chosen by convert-xla-to-kernel) lowers to im2col + GEMM:
// the patch matrix is filled by a parallel loop nest in its memory order,
// then the runtime's GEMM multiplies it by the kernel matrix.

// im2col + GEMM. An HWIO kernel already is the K x N matrix (H, W, I) x O:
// the GEMM reads it in place (the descriptor: m, k, n = 64, 144, 32; rhs
// and out strides (32, 1)) and only the patches are allocated. With the
// input features innermost (NHWC) and in the columns, the patches are
// positions x K, row-major (lhs strides (144, 1)): a window is whole runs
// of input features. NCHW with an OIHW kernel (the matrix transposed: rhs
// strides (1, 144)) stores them K x positions (lhs strides (1, 64)): a
// column's positions walk an input row.
// CHECK: "mem.global"() {{.*}}value = dense<[0, {{.*}}, 64, 144, 32, 1, 64, 1, 144, 1, 64]>
// CHECK: "mem.global"() {{.*}}value = dense<[0, {{.*}}, 64, 144, 32, 144, 1, 32, 1, 32, 1]>
// CHECK-LABEL: func.func @nhwc_hwio
// CHECK-SAME: %[[K:[^:]*]]: memref<3x3x16x32xf32>
// CHECK: %[[P:.*]] = "mem.alloc"() : () -> memref<64x144xf32>
// CHECK-NOT: "mem.alloc"
// CHECK: "func.call"(%{{.*}}, %[[P]], %[[K]], %{{.*}}) {callee = @strata_rt_gemm_f32}
// CHECK-LABEL: func.func @nchw_oihw
// CHECK-SAME: %[[K:[^:]*]]: memref<32x16x3x3xf32>
// CHECK: %[[P:.*]] = "mem.alloc"() : () -> memref<144x64xf32>
// CHECK-NOT: "mem.alloc"
// CHECK: "func.call"(%{{.*}}, %[[P]], %[[K]], %{{.*}}) {callee = @strata_rt_gemm_f32}
func.func @nhwc_hwio(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
func.func @nchw_oihw(%x: tensor<1x16x8x8xf32>, %k: tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32>
  return %0 : tensor<1x32x8x8xf32>
}

// -----

// A reversed window (the gradient of a convolution) has no in-place
// matrix: the kernel is packed into one (K x N) per call, its columns
// (input feature, kernel position) with the features outermost, so the
// patches are K x positions.
// CHECK-LABEL: func.func @reversed
// CHECK: "mem.alloc"() : () -> memref<144x32xf32>
// CHECK: "mem.alloc"() : () -> memref<144x64xf32>
func.func @reversed(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], reverse = [true, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

// bf16 operands with an f32 result: the patches are bf16 and the bf16 GEMM
// sums them in f32.
// CHECK-LABEL: func.func @bf16_nhwc
// CHECK: %[[P:.*]] = "mem.alloc"() : () -> memref<64x144xbf16>
// CHECK: "func.call"(%{{.*}}, %[[P]], %arg1, %{{.*}}) {callee = @strata_rt_gemm_bf16_f32}
func.func @bf16_nhwc(%x: tensor<1x8x8x16xbf16>, %k: tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x16xbf16>, tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

// A convolution to few features packed block by block (position_block = 2
// rows of 64 positions): every (image, block) of a parallel nest allocates
// its own 128 x 288 patch matrix, fills it with a serial nest and
// multiplies it at once (m, k, n = 128, 288, 3; rhs strides (3, 1); out
// strides (3, 1)) into the block's part of the result, 128 x 3 elements
// starting at image * 12288 + block * 384.
// CHECK: "mem.global"() {{.*}}value = dense<[0, {{.*}}, 128, 288, 3, 288, 1, 3, 1, 3, 1]>
// CHECK-LABEL: func.func @blocks_of_rows
// CHECK-SAME: %[[K:[^:]*]]: memref<3x3x32x3xf32>
// CHECK: %[[P:.*]] = "mem.alloc"() : () -> memref<128x288xf32>
// CHECK: "mem.store"({{.*}}, %[[P]],
// CHECK-NOT: parallel
// CHECK: %[[V:.*]] = "mem.offset"({{.*}}) : (memref<2x64x64x3xf32>, index) -> memref<384xf32>
// CHECK: "func.call"(%{{.*}}, %[[P]], %[[K]], %[[V]]) {callee = @strata_rt_gemm_f32}
// CHECK-NEXT: "mem.dealloc"(%[[P]])
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel}
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel}
func.func @blocks_of_rows(%x: tensor<2x64x64x32xf32>, %k: tensor<3x3x32x3xf32>) -> tensor<2x64x64x3xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x64x64x32xf32>, tensor<3x3x32x3xf32>) -> tensor<2x64x64x3xf32>
  return %0 : tensor<2x64x64x3xf32>
}
