// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier message of the kernel dialect (dialects/kernel/src/gemm.rs):
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
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op operands and result must be tensors of one element type, f32 or f64
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 2, 1>, out_strides = array<i64: 2, 1>, batch_sizes = array<i64>, lhs_batch_strides = array<i64>, rhs_batch_strides = array<i64>, out_batch_strides = array<i64>} : (tensor<4x8xi32>, tensor<8x2xi32>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @malformed(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'kernel.gemm' op has a malformed descriptor (mnk, *_strides, *batch*)
  %0 = "kernel.gemm"(%a, %b) {mnk = array<i64: 4, 2>} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
