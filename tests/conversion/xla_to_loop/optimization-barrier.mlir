// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s
// RUN: strata opt %s --convert-xla-to-loop --mem-reuse-buffers | FileCheck %s --check-prefix=REUSE

// An optimization barrier's result is another name of its operand's
// buffer: the buffer is freed after the last reader of either name (here
// the add), not where the operand dies (the barrier), so the log's buffer
// cannot be the exp's.

// CHECK-LABEL: func.func @barrier
// CHECK: %[[Y:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: "arith.exp"
// CHECK: "mem.store"(%{{.*}}, %[[Y]]
// CHECK-NOT: "mem.dealloc"(%[[Y]])
// CHECK: %[[A:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: "arith.log"
// CHECK: "mem.store"(%{{.*}}, %[[A]]
// CHECK-NOT: "mem.dealloc"(%[[Y]])
// CHECK: "arith.addf"
// CHECK: "mem.dealloc"(%[[Y]])

// REUSE-LABEL: func.func @barrier
// REUSE: %[[Y:.*]] = "mem.alloc"() : () -> memref<16xf32>
// REUSE: "arith.exp"
// REUSE: "mem.store"(%{{.*}}, %[[Y]]
// REUSE: %[[A:.*]] = "mem.alloc"() : () -> memref<16xf32>
// REUSE: "arith.log"
// REUSE: "mem.store"(%{{.*}}, %[[A]]
// REUSE: "arith.addf"
func.func @barrier(%x: tensor<16xf32>) -> tensor<16xf32> {
  %y = stablehlo.exponential %x : tensor<16xf32>
  %z = stablehlo.optimization_barrier %y : tensor<16xf32>
  %a = stablehlo.log %x : tensor<16xf32>
  %a2 = stablehlo.optimization_barrier %a : tensor<16xf32>
  %w = stablehlo.add %z, %a2 : tensor<16xf32>
  return %w : tensor<16xf32>
}
