// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s --check-prefix=RELEASE
// RUN: strata opt %s --split-input-file --convert-xla-to-loop --mem-reuse-buffers | FileCheck %s

// convert-xla-to-loop frees each intermediate buffer right after its last
// reader; mem-reuse-buffers then gives it to the next allocation of the same
// size, and every buffer is freed before the function returns.

// RELEASE-LABEL: func.func @reuse
// RELEASE: %[[B0:.*]] = "mem.alloc"() : () -> memref<16xf32>
// RELEASE: "arith.exp"
// RELEASE: %[[B1:.*]] = "mem.alloc"() : () -> memref<16xf32>
// RELEASE: "arith.log"
// RELEASE: "mem.store"(%{{.*}}, %[[B1]]
// RELEASE-NEXT: "loop.yield"
// RELEASE: "mem.dealloc"(%[[B0]])
// RELEASE-NEXT: %[[B2:.*]] = "mem.alloc"() : () -> memref<16xf32>
// RELEASE: "arith.sqrt"
// RELEASE: "mem.dealloc"(%[[B1]])
// RELEASE: "mem.dealloc"(%[[B2]])
// RELEASE-NEXT: "func.return"

// Each value is read at its own index and reversed (so none is computed
// once for both readers in one nest, see multi-output.mlir). %0 (exp) is
// dead after %1 (add+log) is computed, so %3 (mul+sqrt) reuses its buffer;
// the final result goes straight to the output.

// CHECK-LABEL: func.func @reuse
// CHECK-SAME: (%[[A:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK: %[[B0:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: "arith.exp"
// CHECK: "mem.store"(%{{.*}}, %[[B0]]
// CHECK: %[[B1:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: "arith.log"
// CHECK: "mem.store"(%{{.*}}, %[[B1]]
// CHECK-NOT: "mem.alloc"
// CHECK: "arith.sqrt"
// CHECK: "mem.store"(%{{.*}}, %[[B0]]
// CHECK: "arith.mulf"
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// CHECK-DAG: "mem.dealloc"(%[[B0]])
// CHECK-DAG: "mem.dealloc"(%[[B1]])
// CHECK: "func.return"
func.func @reuse(%a: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.exponential %a : tensor<16xf32>
  %r0 = stablehlo.reverse %0, dims = [0] : tensor<16xf32>
  %1 = stablehlo.add %0, %r0 : tensor<16xf32>
  %2 = stablehlo.log %1 : tensor<16xf32>
  %r2 = stablehlo.reverse %2, dims = [0] : tensor<16xf32>
  %3 = stablehlo.multiply %2, %r2 : tensor<16xf32>
  %4 = stablehlo.sqrt %3 : tensor<16xf32>
  %r4 = stablehlo.reverse %4, dims = [0] : tensor<16xf32>
  %5 = stablehlo.multiply %4, %r4 : tensor<16xf32>
  return %5 : tensor<16xf32>
}

// -----

// A dead buffer of the same byte size but another shape is reused through a
// mem.view (atan2, unlike a cheap add, is not recomputed in each reader, and
// one of its readers reverses it, so its value gets a buffer).

// CHECK-LABEL: func.func @reuse_view
// CHECK: %[[B0:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: %[[B1:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: %[[V:.*]] = "mem.view"(%[[B0]]) : (memref<16xf32>) -> memref<4x4xf32>
// CHECK: "mem.store"(%{{.*}}, %[[V]]
// CHECK-NOT: "mem.alloc"
func.func @reuse_view(%a: tensor<16xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.exponential %a : tensor<16xf32>
  %r0 = stablehlo.reverse %0, dims = [0] : tensor<16xf32>
  %1 = stablehlo.atan2 %0, %r0 : tensor<16xf32>
  %r1 = stablehlo.reverse %1, dims = [0] : tensor<16xf32>
  %2 = stablehlo.multiply %1, %r1 : tensor<16xf32>
  %3 = stablehlo.reshape %2 : (tensor<16xf32>) -> tensor<4x4xf32>
  %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %5 = stablehlo.exponential %4 : tensor<4x4xf32>
  %r5 = stablehlo.reverse %5, dims = [0] : tensor<4x4xf32>
  %6 = stablehlo.add %5, %r5 : tensor<4x4xf32>
  return %6 : tensor<4x4xf32>
}
