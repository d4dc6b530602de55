// RUN: strata opt %s --split-input-file --convert-xla-to-kernel --convert-xla-to-loop | FileCheck %s

// A caller's buffer that a loop passes through unchanged and reads with a
// kernel (here a GEMM) is copied into a buffer of its own while the
// caller's buffers the loop would share are small: the copy is 64-byte
// aligned, the caller's only element-aligned, and a kernel reading a
// misaligned weight at every iteration lost more than the copy costs.

// CHECK-LABEL: func.func @small_weight
// CHECK-SAME: (%[[W:[^:]*]]: memref<64x64xf32>
// CHECK: "mem.copy"(%[[W]], %[[COPY:[0-9]+]])
// CHECK: "loop.while"
// CHECK: "func.call"({{.*}}%[[COPY]], {{.*}}@strata_rt_gemm_f32
func.func @small_weight(%w: tensor<64x64xf32>, %x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%v = %w, %h = %x, %i = %c0) : tensor<64x64xf32>, tensor<8x64xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %d = stablehlo.dot_general %h, %v, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %v, %d, %j : tensor<64x64xf32>, tensor<8x64xf32>, tensor<i32>
  }
  return %r#1 : tensor<8x64xf32>
}

// -----

// Past 16 MiB together they are read in place (past the caches alignment
// hardly matters and the copy is what costs).

// CHECK-LABEL: func.func @large_weight
// CHECK-SAME: (%[[W:[^:]*]]: memref<2049x2048xf32>
// CHECK-NOT: "mem.copy"(%[[W]]
// CHECK: "loop.while"
// CHECK: "func.call"({{.*}}%[[W]], {{.*}}@strata_rt_gemm_f32
func.func @large_weight(%w: tensor<2049x2048xf32>, %x: tensor<1x2049xf32>) -> tensor<1x2048xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<1x2048xf32>
  %r:3 = stablehlo.while(%v = %w, %h = %z, %i = %c0) : tensor<2049x2048xf32>, tensor<1x2048xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %d = stablehlo.dot_general %x, %v, contracting_dims = [1] x [0] : (tensor<1x2049xf32>, tensor<2049x2048xf32>) -> tensor<1x2048xf32>
    %s = stablehlo.add %d, %h : tensor<1x2048xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %v, %s, %j : tensor<2049x2048xf32>, tensor<1x2048xf32>, tensor<i32>
  }
  return %r#1 : tensor<1x2048xf32>
}
