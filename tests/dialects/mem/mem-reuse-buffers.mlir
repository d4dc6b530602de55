// RUN: strata opt %s --split-input-file --mem-reuse-buffers | FileCheck %s

// A buffer freed in a block is given to the next allocation of the same byte
// size in that block; it is freed once, before the terminator.

// CHECK-LABEL: func.func @same_type
// CHECK: %[[A:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: "mem.copy"(%arg0, %[[A]])
// CHECK: %[[B:.*]] = "mem.alloc"() : () -> memref<16xf32>
// CHECK: "mem.copy"(%[[A]], %[[B]])
// CHECK-NOT: "mem.alloc"
// CHECK-NOT: "mem.dealloc"
// CHECK: "mem.copy"(%[[B]], %[[A]])
// CHECK: "mem.copy"(%[[A]], %arg1)
// CHECK-NEXT: "mem.dealloc"(%[[A]])
// CHECK-NEXT: "mem.dealloc"(%[[B]])
// CHECK-NEXT: "func.return"
func.func @same_type(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = "mem.alloc"() : () -> memref<16xf32>
  "mem.copy"(%in, %a) : (memref<16xf32>, memref<16xf32>) -> ()
  %b = "mem.alloc"() : () -> memref<16xf32>
  "mem.copy"(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  "mem.dealloc"(%a) : (memref<16xf32>) -> ()
  %c = "mem.alloc"() : () -> memref<16xf32>
  "mem.copy"(%b, %c) : (memref<16xf32>, memref<16xf32>) -> ()
  "mem.dealloc"(%b) : (memref<16xf32>) -> ()
  "mem.copy"(%c, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  "mem.dealloc"(%c) : (memref<16xf32>) -> ()
  "func.return"() : () -> ()
}

// -----

// Same size, other type: the allocation becomes a view of the freed buffer.
// Another size gets its own allocation.

// CHECK-LABEL: func.func @other_type
// CHECK: %[[A:.*]] = "mem.alloc"() : () -> memref<4xi32>
// CHECK: %[[V:.*]] = "mem.view"(%[[A]]) : (memref<4xi32>) -> memref<2x2xf32>
// CHECK: "mem.store"(%{{.*}}, %[[V]]
// CHECK: %[[W:.*]] = "mem.alloc"() : () -> memref<8xf32>
// CHECK-DAG: "mem.dealloc"(%[[W]])
// CHECK-DAG: "mem.dealloc"(%[[A]])
func.func @other_type(%out: memref<8xf32>) {
  %z = "arith.constant"() {value = 0 : index} : () -> index
  %one = "arith.constant"() {value = 1.0 : f32} : () -> f32
  %a = "mem.alloc"() : () -> memref<4xi32>
  "mem.dealloc"(%a) : (memref<4xi32>) -> ()
  %b = "mem.alloc"() : () -> memref<2x2xf32>
  "mem.store"(%one, %b, %z, %z) : (f32, memref<2x2xf32>, index, index) -> ()
  %w = "mem.alloc"() : () -> memref<8xf32>
  "mem.copy"(%w, %out) : (memref<8xf32>, memref<8xf32>) -> ()
  "mem.dealloc"(%w) : (memref<8xf32>) -> ()
  "mem.dealloc"(%b) : (memref<2x2xf32>) -> ()
  "func.return"() : () -> ()
}

// -----

// A loop body reuses its own buffers only: the outer buffer freed before the
// loop is not given to the body's allocation, which stays (and is freed) in
// the body.

// CHECK-LABEL: func.func @loop_body
// CHECK: %[[OUTER:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK: "loop.for"
// CHECK: %[[INNER:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK: "mem.dealloc"(%[[INNER]])
// CHECK: "loop.yield"
// CHECK: "mem.dealloc"(%[[OUTER]])
// CHECK-NEXT: "func.return"
func.func @loop_body(%in: memref<4xf32>) {
  %lo = "arith.constant"() {value = 0 : index} : () -> index
  %hi = "arith.constant"() {value = 3 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %outer = "mem.alloc"() : () -> memref<4xf32>
  "mem.copy"(%in, %outer) : (memref<4xf32>, memref<4xf32>) -> ()
  "mem.dealloc"(%outer) : (memref<4xf32>) -> ()
  "loop.for"(%lo, %hi, %st) ({
    ^bb0(%i: index):
      %inner = "mem.alloc"() : () -> memref<4xf32>
      "mem.copy"(%in, %inner) : (memref<4xf32>, memref<4xf32>) -> ()
      "mem.dealloc"(%inner) : (memref<4xf32>) -> ()
      "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "func.return"() : () -> ()
}
