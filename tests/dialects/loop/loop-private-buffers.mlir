// RUN: strata opt %s --split-input-file --loop-private-buffers | FileCheck %s

// A buffer that one loop alone uses, row i in iteration i, becomes one row
// on the stack at the top of the loop's body; its accesses lose the first
// index and its allocation and free go.

// CHECK-LABEL: func.func @row
// CHECK-NOT: "mem.alloc"
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT: %[[R:.*]] = "mem.alloca"() : () -> memref<4xf32>
// CHECK: "mem.store"(%{{.*}}, %[[R]], %{{.*}}) : (f32, memref<4xf32>, index)
// CHECK: "mem.load"(%[[R]], %{{.*}}) : (memref<4xf32>, index)
// CHECK-NOT: "mem.dealloc"
// CHECK: "func.return"
func.func @row(%a: memref<8x4xf32>, %out: memref<8x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %n = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<8x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%a, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      "mem.store"(%x, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%t, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      "mem.store"(%x, %out, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// Kept: used by two loops; read across rows; rows larger than 16 KiB.

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: "mem.alloc"
// CHECK-NOT: "mem.alloca"
// CHECK-COUNT-3: "mem.dealloc"
func.func @kept(%a: memref<2x8192xf32>, %out: memref<2x8192xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %two = "arith.constant"() {value = 2 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %shared = "mem.alloc"() : () -> memref<2xf32>
  %across = "mem.alloc"() : () -> memref<2x2xf32>
  %wide = "mem.alloc"() : () -> memref<2x8192xf32>
  "loop.for"(%lb, %two, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i, %lb) : (memref<2x8192xf32>, index, index) -> f32
    "mem.store"(%x, %shared, %i) : (f32, memref<2xf32>, index) -> ()
    "mem.store"(%x, %across, %lb, %i) : (f32, memref<2x2xf32>, index, index) -> ()
    "mem.store"(%x, %wide, %i, %lb) : (f32, memref<2x8192xf32>, index, index) -> ()
    %y = "mem.load"(%wide, %i, %lb) : (memref<2x8192xf32>, index, index) -> f32
    "mem.store"(%y, %out, %i, %lb) : (f32, memref<2x8192xf32>, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%lb, %two, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%shared, %i) : (memref<2xf32>, index) -> f32
    "mem.store"(%x, %out, %i, %st) : (f32, memref<2x8192xf32>, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%shared) : (memref<2xf32>) -> ()
  "mem.dealloc"(%across) : (memref<2x2xf32>) -> ()
  "mem.dealloc"(%wide) : (memref<2x8192xf32>) -> ()
  func.return
}

// -----

// Used only inside the loops over b and then i, as t[b, i, ...]: one row of
// 8 floats per (b, i) iteration, at the top of the inner loop's body.

// CHECK-LABEL: func.func @nested
// CHECK-NOT: "mem.alloc"
// CHECK: "loop.for"
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT: %[[R:.*]] = "mem.alloca"() : () -> memref<8xf32>
// CHECK: "mem.store"(%{{.*}}, %[[R]], %{{.*}}) : (f32, memref<8xf32>, index)
// CHECK: "mem.load"(%[[R]], %{{.*}}) : (memref<8xf32>, index)
// CHECK-NOT: "mem.dealloc"
func.func @nested(%a: memref<2x4x8xf32>, %out: memref<2x4x8xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %nb = "arith.constant"() {value = 2 : index} : () -> index
  %ni = "arith.constant"() {value = 4 : index} : () -> index
  %nj = "arith.constant"() {value = 8 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<2x4x8xf32>
  "loop.for"(%lb, %nb, %st) ({
  ^bb0(%b: index):
    "loop.for"(%lb, %ni, %st) ({
    ^bb1(%i: index):
      "loop.for"(%lb, %nj, %st) ({
      ^bb2(%j: index):
        %x = "mem.load"(%a, %b, %i, %j) : (memref<2x4x8xf32>, index, index, index) -> f32
        "mem.store"(%x, %t, %b, %i, %j) : (f32, memref<2x4x8xf32>, index, index, index) -> ()
        "loop.yield"() : () -> ()
      }) {parallel} : (index, index, index) -> ()
      "loop.for"(%lb, %nj, %st) ({
      ^bb2(%j: index):
        %x = "mem.load"(%t, %b, %i, %j) : (memref<2x4x8xf32>, index, index, index) -> f32
        "mem.store"(%x, %out, %b, %i, %j) : (f32, memref<2x4x8xf32>, index, index, index) -> ()
        "loop.yield"() : () -> ()
      }) {parallel} : (index, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%t) : (memref<2x4x8xf32>) -> ()
  func.return
}
