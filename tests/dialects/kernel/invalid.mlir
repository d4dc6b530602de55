// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier message of the kernel dialect (dialects/kernel/src/gemm.rs, transpose.rs, conv.rs):
// a wrong descriptor would make the runtime read or write out of bounds.

func.func @rhs_out_of_bounds(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op the descriptor's rhs view leaves its 16-element buffer
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 8>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @negative_stride(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op the descriptor's lhs view leaves its 32-element buffer
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: -8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @result_not_covered(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op the descriptor does not cover every element of the result once
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 2, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @integers(%a: tensor<4x8xi32>, %b: tensor<8x2xi32>) -> tensor<4x2xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op operands and result must be tensors of f32, f64, bf16 -> f32 or i8 -> i32
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xi32>, tensor<8x2xi32>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// bf16 operands sum into f32 only; i8 into i32 only, signed.
func.func @bf16_to_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op operands and result must be tensors of f32, f64, bf16 -> f32 or i8 -> i32
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  return %0 : tensor<4x2xbf16>
}

// -----

func.func @unsigned_bytes(%a: tensor<4x8xui8>, %b: tensor<8x2xui8>) -> tensor<4x2xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op operands and result must be tensors of f32, f64, bf16 -> f32 or i8 -> i32
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xui8>, tensor<8x2xui8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @malformed(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op has a malformed descriptor (mnk, *_strides, *batch*)
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// kernel.transpose (dialects/kernel/src/transpose.rs).

func.func @transpose_src_out_of_bounds(%a: tensor<16x32xf32>) -> tensor<32x16xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.transpose' op the descriptor's operand view leaves its 512-element buffer
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 33, 16>, outer_sizes = array<i64>, src_outer_strides = array<i64>, dst_outer_strides = array<i64>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

// -----

func.func @transpose_dst_out_of_bounds(%a: tensor<2x16x32xf32>) -> tensor<2x32x16xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.transpose' op the descriptor's result view leaves its 1024-element buffer
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64: 2>, src_outer_strides = array<i64: 512>, dst_outer_strides = array<i64: 600>} : (tensor<2x16x32xf32>) -> tensor<2x32x16xf32>
  return %0 : tensor<2x32x16xf32>
}

// -----

func.func @transpose_not_covered(%a: tensor<16x32xf32>) -> tensor<32x16xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.transpose' op the descriptor does not cover every element of the result once
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 8, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64>, src_outer_strides = array<i64>, dst_outer_strides = array<i64>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

// -----

func.func @transpose_f64(%a: tensor<16x32xf64>) -> tensor<32x16xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.transpose' op operand and result must be tensors of one 4-byte element type
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64>, src_outer_strides = array<i64>, dst_outer_strides = array<i64>} : (tensor<16x32xf64>) -> tensor<32x16xf64>
  return %0 : tensor<32x16xf64>
}

// -----

func.func @transpose_malformed(%a: tensor<16x32xf32>) -> tensor<32x16xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.transpose' op has a malformed descriptor (rows_cols, row_strides, outer_sizes, *_outer_strides)
  %0 = "kernel.transpose"(%a) {rows_cols = array<i64: 16, 32>, row_strides = array<i64: 32, 16>, outer_sizes = array<i64: 1>, src_outer_strides = array<i64>, dst_outer_strides = array<i64>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

// -----

// kernel.conv (dialects/kernel/src/conv.rs).

func.func @conv_wrong_in_place(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.conv' op has malformed 'columns', a 'kernel_in_place' that is not where those columns lie in the kernel, or a 'position_block' that does not divide the outermost output spatial dimension of an ungrouped convolution with images outermost
  %0 = "kernel.conv"(%x, %k) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, columns = array<i64: -1, 0, 1>, kernel_in_place = array<i64: 32, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

func.func @conv_position_block_not_dividing(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x2xf32>) -> tensor<1x8x8x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.conv' op has malformed 'columns', a 'kernel_in_place' that is not where those columns lie in the kernel, or a 'position_block' that does not divide
  %0 = "kernel.conv"(%x, %k) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 2, 1>, position_block = 3 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x16x2xf32>) -> tensor<1x8x8x2xf32>
  return %0 : tensor<1x8x8x2xf32>
}

// -----

func.func @conv_repeated_column(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.conv' op has malformed 'columns'
  %0 = "kernel.conv"(%x, %k) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, columns = array<i64: 0, 0, -1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

func.func @conv_depthwise(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x1x16xf32>) -> tensor<1x8x8x16xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.conv' op is not a convolution im2col + GEMM computes
  %0 = "kernel.conv"(%x, %k) {dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = [1 : i64, 2 : i64], kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = [0 : i64, 1 : i64], output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = [1 : i64, 2 : i64]>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, batch_group_count = 1 : i64, feature_group_count = 16 : i64, columns = array<i64: 0, 1, -1>} : (tensor<1x8x8x16xf32>, tensor<3x3x1x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
