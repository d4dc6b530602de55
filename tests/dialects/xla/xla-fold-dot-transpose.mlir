// RUN: strata opt %s --xla-fold-dot-transpose | FileCheck %s

// Tied embeddings, h @ E.T: JAX exports transpose(E) then a dot; the dot
// reads E directly (contracting [2] x [1]) and the transpose goes.
// CHECK-LABEL: func.func @tied_embedding
// CHECK-NOT: xla.transpose
// CHECK: "xla.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [2 : i64], rhs_contracting_dimensions = [1 : i64]>
func.func @tied_embedding(%h: tensor<1x8x16xf32>, %e: tensor<100x16xf32>) -> tensor<1x8x100xf32> {
  %t = stablehlo.transpose %e, dims = [1, 0] : (tensor<100x16xf32>) -> tensor<16x100xf32>
  %0 = stablehlo.dot_general %h, %t, contracting_dims = [2] x [0] : (tensor<1x8x16xf32>, tensor<16x100xf32>) -> tensor<1x8x100xf32>
  return %0 : tensor<1x8x100xf32>
}

// Attention's k transposed to (b, h, d, s): batch and contracting
// dimensions map through the permutation.
// CHECK-LABEL: func.func @attention_k_transposed
// CHECK-NOT: xla.transpose
// CHECK: "xla.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0 : i64, 1 : i64], rhs_batching_dimensions = [0 : i64, 2 : i64], lhs_contracting_dimensions = [3 : i64], rhs_contracting_dimensions = [3 : i64]>
func.func @attention_k_transposed(%q: tensor<2x4x16x8xf32>, %k: tensor<2x16x4x8xf32>) -> tensor<2x4x16x16xf32> {
  %t = stablehlo.transpose %k, dims = [0, 2, 3, 1] : (tensor<2x16x4x8xf32>) -> tensor<2x4x8x16xf32>
  %0 = stablehlo.dot_general %q, %t, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// A transpose that reorders the free dimensions would reorder the result:
// it stays. One with another use stays too, while the dot reads through it.
// CHECK-LABEL: func.func @free_dims_reordered
// CHECK: %[[T:.*]] = "xla.transpose"
// CHECK: "xla.dot_general"(%[[T]], %arg1)
// CHECK-LABEL: func.func @transpose_used_twice
// CHECK: %[[T:.*]] = "xla.transpose"
// CHECK: "xla.dot_general"(%arg0, %arg0)
// CHECK: "func.return"({{.*}}%[[T]]
func.func @free_dims_reordered(%a: tensor<3x5x4xf32>, %b: tensor<4x2xf32>) -> tensor<5x3x2xf32> {
  %t = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<3x5x4xf32>) -> tensor<5x3x4xf32>
  %0 = stablehlo.dot_general %t, %b, contracting_dims = [2] x [0] : (tensor<5x3x4xf32>, tensor<4x2xf32>) -> tensor<5x3x2xf32>
  return %0 : tensor<5x3x2xf32>
}
func.func @transpose_used_twice(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = stablehlo.dot_general %a, %t, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %t : tensor<4x4xf32>, tensor<4x4xf32>
}

// A large batch of tiny f32 products (here 256 x 8 heads of 32x8 by 8x32)
// stays a loop nest reading a row of the rhs innermost: the transpose
// stays, to be written once instead of read strided. In bf16 the products
// go to the GEMM kernel, which reads through strides: folded.
// CHECK-LABEL: func.func @tiny_heads
// CHECK: %[[T:.*]] = "xla.transpose"
// CHECK: "xla.dot_general"(%arg0, %[[T]])
// CHECK-LABEL: func.func @tiny_heads_bf16
// CHECK-NOT: xla.transpose
// CHECK: "xla.dot_general"(%arg0, %arg1)
func.func @tiny_heads(%q: tensor<256x8x32x8xf32>, %k: tensor<256x8x32x8xf32>) -> tensor<256x8x32x32xf32> {
  %t = stablehlo.transpose %k, dims = [0, 1, 3, 2] : (tensor<256x8x32x8xf32>) -> tensor<256x8x8x32xf32>
  %0 = stablehlo.dot_general %q, %t, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<256x8x32x8xf32>, tensor<256x8x8x32xf32>) -> tensor<256x8x32x32xf32>
  return %0 : tensor<256x8x32x32xf32>
}
func.func @tiny_heads_bf16(%q: tensor<256x8x32x8xbf16>, %k: tensor<256x8x32x8xbf16>) -> tensor<256x8x32x32xbf16> {
  %t = stablehlo.transpose %k, dims = [0, 1, 3, 2] : (tensor<256x8x32x8xbf16>) -> tensor<256x8x8x32xbf16>
  %0 = stablehlo.dot_general %q, %t, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<256x8x32x8xbf16>, tensor<256x8x8x32xbf16>) -> tensor<256x8x32x32xbf16>
  return %0 : tensor<256x8x32x32xbf16>
}
