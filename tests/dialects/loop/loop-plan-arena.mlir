// RUN: strata opt %s --split-input-file --loop-plan-arena | FileCheck %s

// Buffers whose lives do not overlap share the arena's bytes; every slice
// is 64-byte aligned; deallocations go and the arena is given back before
// the return. The function records its arena and scratch sizes.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: attributes {arena_bytes = 128 : i64, scratch_bytes = 128 : i64}
// CHECK: %[[ARENA:.*]] = "mem.arena"() : () -> memref<128xi8>
// CHECK: %[[A:.*]] = "mem.slice"(%[[ARENA]]) {offset = 0 : i64} : (memref<128xi8>) -> memref<4xf32>
// CHECK: %[[B:.*]] = "mem.slice"(%[[ARENA]]) {offset = 64 : i64} : (memref<128xi8>) -> memref<4xf32>
// CHECK: "mem.copy"(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = "mem.slice"(%[[ARENA]]) {offset = 0 : i64} : (memref<128xi8>) -> memref<8xf32>
// CHECK-NOT: mem.dealloc
// CHECK: "mem.arena_release"(%[[ARENA]])
// CHECK-NEXT: "func.return"
func.func @chain(%x: memref<4xf32>, %out: memref<8xf32>) {
  %a = "mem.alloc"() : () -> memref<4xf32>
  "mem.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  %b = "mem.alloc"() : () -> memref<4xf32>
  "mem.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  "mem.dealloc"(%a) : (memref<4xf32>) -> ()
  %c = "mem.alloc"() : () -> memref<8xf32>
  %v = "mem.view"(%c) : (memref<8xf32>) -> memref<2x4xf32>
  "mem.copy"(%c, %out) : (memref<8xf32>, memref<8xf32>) -> ()
  "mem.dealloc"(%b) : (memref<4xf32>) -> ()
  "mem.dealloc"(%c) : (memref<8xf32>) -> ()
  "func.return"() : () -> ()
}

// -----

// A buffer allocated inside a parallel loop stays on the heap (each
// iteration runs on its own thread); one in a sequential loop takes its
// slot for the whole loop. A caller's scratch covers its callee's.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: attributes {arena_bytes = 4096 : i64, scratch_bytes = 4096 : i64}
// CHECK-LABEL: func.func @loops
// CHECK-SAME: attributes {arena_bytes = 64 : i64, scratch_bytes = 4160 : i64}
// CHECK: "mem.arena"() : () -> memref<64xi8>
// CHECK: "loop.for"
// CHECK: "mem.slice"
// CHECK: "loop.for"
// CHECK: "mem.alloc"() : () -> memref<16xf32>
// CHECK: "mem.dealloc"
func.func private @callee(%x: memref<4xf32>) {
  %big = "mem.alloc"() : () -> memref<1024xf32>
  "mem.dealloc"(%big) : (memref<1024xf32>) -> ()
  "func.return"() : () -> ()
}
func.func @loops(%x: memref<4xf32>) {
  %c0 = "arith.constant"() {value = 0 : index} : () -> index
  %c4 = "arith.constant"() {value = 4 : index} : () -> index
  %c1 = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %t = "mem.alloc"() : () -> memref<4xf32>
    "mem.copy"(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
    "mem.dealloc"(%t) : (memref<4xf32>) -> ()
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "loop.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %p = "mem.alloc"() : () -> memref<16xf32>
    "mem.dealloc"(%p) : (memref<16xf32>) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "func.call"(%x) {callee = @callee} : (memref<4xf32>) -> ()
  "func.return"() : () -> ()
}
