// RUN: strata opt %s --split-input-file --loop-fuse-parallel | FileCheck %s

// A producer loop and its consumer over the same rows fuse: the consumer's
// body follows the producer's in one loop, its induction variable replaced;
// the constants and the allocation between them move before the loop, the
// free of a buffer only the producer used moves after it.

// CHECK-LABEL: func.func @rows
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<8x4xf32>
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "mem.store"(%{{.*}}, %[[T]], %[[I]], %{{.*}})
// CHECK: %[[X:.*]] = "mem.load"(%[[T]], %[[I]], %{{.*}})
// CHECK: "mem.store"(%{{.*}}, %{{.*}}, %[[I]], %{{.*}})
// CHECK: }) {parallel}
// CHECK-NOT: "loop.for"
// CHECK: "mem.dealloc"(%[[T]])
// CHECK-NEXT: "func.return"
func.func @rows(%a: memref<8x4xf32>, %out: memref<8x4xf32>) {
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
      %y = "arith.exp"(%x) : (f32) -> f32
      "mem.store"(%y, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  %lb2 = "arith.constant"() {value = 0 : index} : () -> index
  %ub2 = "arith.constant"() {value = 8 : index} : () -> index
  "loop.for"(%lb2, %ub2, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%t, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      %y = "arith.addf"(%x, %x) : (f32, f32) -> f32
      "mem.store"(%y, %out, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// The consumer reads the producer's buffer transposed: iteration i needs
// column i, which every iteration of the producer writes. No fusion.

// CHECK-LABEL: func.func @transposed
// CHECK: "loop.for"
// CHECK: }) {parallel}
// CHECK: "loop.for"
// CHECK: }) {parallel}
func.func @transposed(%a: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<4x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %ub, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%a, %i, %j) : (memref<4x4xf32>, index, index) -> f32
      "mem.store"(%x, %t, %i, %j) : (f32, memref<4x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %ub, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%t, %j, %i) : (memref<4x4xf32>, index, index) -> f32
      "mem.store"(%x, %out, %i, %j) : (f32, memref<4x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%t) : (memref<4x4xf32>) -> ()
  func.return
}

// -----

// Through a view the rows of the buffer are not the rows of the loop: the
// reshaped consumer stays apart.

// CHECK-LABEL: func.func @viewed
// CHECK-COUNT-2: }) {parallel}
func.func @viewed(%a: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  %t = "mem.alloc"() : () -> memref<4x4xf32>
  %v = "mem.view"(%t) : (memref<4x4xf32>) -> memref<4x4xf32>
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i, %lb) : (memref<4x4xf32>, index, index) -> f32
    "mem.store"(%x, %t, %i, %lb) : (f32, memref<4x4xf32>, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%v, %i, %lb) : (memref<4x4xf32>, index, index) -> f32
    "mem.store"(%x, %out, %i, %lb) : (f32, memref<4x4xf32>, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%t) : (memref<4x4xf32>) -> ()
  func.return
}

// -----

// Loops that share no written buffer, loops with different bounds, and
// loops with an op between them that cannot move all stay apart.

// CHECK-LABEL: func.func @apart
// CHECK-COUNT-4: }) {parallel}
func.func @apart(%a: memref<4xf32>, %o1: memref<4xf32>, %o2: memref<4xf32>, %o3: memref<2xf32>, %o4: memref<4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 4 : index} : () -> index
  %two = "arith.constant"() {value = 2 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<4xf32>, index) -> f32
    "mem.store"(%x, %o1, %i) : (f32, memref<4xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<4xf32>, index) -> f32
    "mem.store"(%x, %o2, %i) : (f32, memref<4xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "loop.for"(%lb, %two, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%o2, %i) : (memref<4xf32>, index) -> f32
    "mem.store"(%x, %o3, %i) : (f32, memref<2xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  %c = "mem.load"(%o3, %lb) : (memref<2xf32>, index) -> f32
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%o1, %i) : (memref<4xf32>, index) -> f32
    %y = "arith.addf"(%x, %c) : (f32, f32) -> f32
    "mem.store"(%y, %o4, %i) : (f32, memref<4xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  func.return
}

// -----

// Inside a loop over heads b, the loops over rows i fuse too: every access
// to the shared buffer has i at index 1 (`t[b, i, j]`).

// CHECK-LABEL: func.func @heads
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK-NEXT: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "mem.store"(%{{.*}}, %[[T:.*]], %[[B]], %[[I]], %{{.*}})
// CHECK: "mem.load"(%[[T]], %[[B]], %[[I]], %{{.*}})
// CHECK: }) {parallel}
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel}
// CHECK-NOT: "loop.for"
func.func @heads(%a: memref<2x4x8xf32>, %out: memref<2x4x8xf32>) {
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
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.for"(%lb, %ni, %st) ({
    ^bb1(%i: index):
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

// -----

// Scalar code between the loops (layer norm's `N - ddof`, computed and
// stored into a 0-d buffer) moves before the first loop when it touches
// nothing that loop uses: the loops still fuse.

// CHECK-LABEL: func.func @scalar_code_between
// CHECK: %[[S:.*]] = "mem.alloc"() : () -> memref<f32>
// CHECK: %[[D:.*]] = "arith.subf"
// CHECK: "mem.store"(%[[D]], %[[S]])
// CHECK: "loop.for"
// CHECK: "mem.load"(%[[S]])
// CHECK: }) {parallel}
// CHECK-NOT: "loop.for"
// CHECK: "func.return"
func.func @scalar_code_between(%a: memref<8x4xf32>, %out: memref<8x4xf32>) {
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
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  %s = "mem.alloc"() : () -> memref<f32>
  %c4 = "arith.constant"() {value = 4.0 : f32} : () -> f32
  %c1 = "arith.constant"() {value = 1.0 : f32} : () -> f32
  %d = "arith.subf"(%c4, %c1) : (f32, f32) -> f32
  "mem.store"(%d, %s) : (f32, memref<f32>) -> ()
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%t, %i, %j) : (memref<8x4xf32>, index, index) -> f32
      %k = "mem.load"(%s) : (memref<f32>) -> f32
      %y = "arith.divf"(%x, %k) : (f32, f32) -> f32
      "mem.store"(%y, %out, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  "mem.dealloc"(%s) : (memref<f32>) -> ()
  "mem.dealloc"(%t) : (memref<8x4xf32>) -> ()
  func.return
}

// -----

// A store between the loops into a buffer the first loop reads must stay
// after it (the first loop reads the old value): no fusion.

// CHECK-LABEL: func.func @store_into_what_the_first_reads
// CHECK: "loop.for"
// CHECK: }) {parallel}
// CHECK: "mem.store"(%{{.*}}, %arg2)
// CHECK: "loop.for"
func.func @store_into_what_the_first_reads(%a: memref<8x4xf32>, %out: memref<8x4xf32>, %s: memref<f32>) {
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
      %k = "mem.load"(%s) : (memref<f32>) -> f32
      %y = "arith.mulf"(%x, %k) : (f32, f32) -> f32
      "mem.store"(%y, %t, %i, %j) : (f32, memref<8x4xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel} : (index, index, index) -> ()
  %c2 = "arith.constant"() {value = 2.0 : f32} : () -> f32
  "mem.store"(%c2, %s) : (f32, memref<f32>) -> ()
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
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

// Loops inside a while loop's body fuse too: each step of a fori_loop or
// scan has its own chains of element-wise loops.

// CHECK-LABEL: func.func @in_while
// CHECK: "loop.while"
// CHECK: "loop.condition"
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<8xf32>
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "mem.store"(%{{.*}}, %[[T]], %[[I]])
// CHECK: "mem.load"(%[[T]], %[[I]])
// CHECK: "mem.store"(%{{.*}}, %{{.*}}, %[[I]])
// CHECK: }) {parallel}
// CHECK-NOT: "loop.for"
// CHECK: "mem.dealloc"(%[[T]])
// CHECK: "loop.yield"
func.func @in_while(%a: memref<8xf32>, %n: memref<i32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 8 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.while"() ({
    %k = "mem.load"(%n) : (memref<i32>) -> i32
    %three = "arith.constant"() {value = 3 : i32} : () -> i32
    %c = "arith.cmpi"(%k, %three) {predicate = "slt"} : (i32, i32) -> i1
    "loop.condition"(%c) : (i1) -> ()
  }, {
    %t = "mem.alloc"() : () -> memref<8xf32>
    "loop.for"(%lb, %ub, %st) ({
    ^bb0(%i: index):
      %x = "mem.load"(%a, %i) : (memref<8xf32>, index) -> f32
      %y = "arith.mulf"(%x, %x) : (f32, f32) -> f32
      "mem.store"(%y, %t, %i) : (f32, memref<8xf32>, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.for"(%lb, %ub, %st) ({
    ^bb0(%i: index):
      %x = "mem.load"(%t, %i) : (memref<8xf32>, index) -> f32
      %y = "arith.addf"(%x, %x) : (f32, f32) -> f32
      "mem.store"(%y, %a, %i) : (f32, memref<8xf32>, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "mem.dealloc"(%t) : (memref<8xf32>) -> ()
    %k = "mem.load"(%n) : (memref<i32>) -> i32
    %one = "arith.constant"() {value = 1 : i32} : () -> i32
    %k1 = "arith.addi"(%k, %one) : (i32, i32) -> i32
    "mem.store"(%k1, %n) : (i32, memref<i32>) -> ()
    "loop.yield"() : () -> ()
  }) : () -> ()
  func.return
}
