// RUN: strata opt %s --split-input-file --loop-tile | FileCheck %s

// A row loop marked `tile = array<i64: B, T>` over a column loop becomes
// blocks of B x B (the block rows parallel as the row loop was), tiles of
// T x T in them, and the elements of a tile; the inner body moves in with
// the row and column indices rebuilt as block + tile + element, the inner
// loop's bound constants before the nest.

// CHECK-LABEL: func.func @transpose
// CHECK: "arith.constant"() {value = 32 : index}
// CHECK-NEXT: "arith.constant"() {value = 1 : index}
// CHECK-NEXT: %[[L:.*]] = "arith.constant"() {value = 0 : index}
// CHECK-NEXT: %[[N:.*]] = "arith.constant"() {value = 16 : index}
// CHECK-NEXT: %[[B:.*]] = "arith.constant"() {value = 16 : index}
// CHECK-NEXT: "loop.for"(%[[L]], %[[N]], %[[B]])
// CHECK-NEXT: ^{{.*}}(%[[I1:.*]]: index):
// CHECK-NEXT: "arith.constant"() {value = 0 : index}
// CHECK-NEXT: "arith.constant"() {value = 32 : index}
// CHECK-NEXT: "arith.constant"() {value = 16 : index}
// CHECK-NEXT: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J1:.*]]: index):
// CHECK-NEXT: "arith.constant"() {value = 0 : index}
// CHECK-NEXT: "arith.constant"() {value = 16 : index}
// CHECK-NEXT: "arith.constant"() {value = 8 : index}
// CHECK-NEXT: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I0:.*]]: index):
// CHECK-NEXT: "arith.constant"() {value = 0 : index}
// CHECK-NEXT: "arith.constant"() {value = 16 : index}
// CHECK-NEXT: "arith.constant"() {value = 8 : index}
// CHECK-NEXT: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J0:.*]]: index):
// CHECK-NEXT: "arith.constant"() {value = 0 : index}
// CHECK-NEXT: "arith.constant"() {value = 8 : index}
// CHECK-NEXT: "arith.constant"() {value = 1 : index}
// CHECK-NEXT: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[DI:.*]]: index):
// CHECK-NEXT: "arith.constant"() {value = 0 : index}
// CHECK-NEXT: "arith.constant"() {value = 8 : index}
// CHECK-NEXT: "arith.constant"() {value = 1 : index}
// CHECK-NEXT: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[DJ:.*]]: index):
// CHECK-NEXT: %[[R0:.*]] = "arith.addi"(%[[I1]], %[[I0]])
// CHECK-NEXT: %[[R:.*]] = "arith.addi"(%[[R0]], %[[DI]])
// CHECK-NEXT: %[[C0:.*]] = "arith.addi"(%[[J1]], %[[J0]])
// CHECK-NEXT: %[[C:.*]] = "arith.addi"(%[[C0]], %[[DJ]])
// CHECK-NEXT: %[[X:.*]] = "mem.load"(%arg0, %[[C]], %[[R]])
// CHECK-NEXT: "mem.store"(%[[X]], %arg1, %[[R]], %[[C]])
// CHECK-NEXT: "loop.yield"
// CHECK-COUNT-5: }) : (index, index, index) -> ()
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel} : (index, index, index) -> ()
// CHECK-NOT: tile
// CHECK: "func.return"
func.func @transpose(%a: memref<32x16xf32>, %out: memref<16x32xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %rows = "arith.constant"() {value = 16 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%lb, %rows, %st) ({
  ^bb0(%i: index):
    %z = "arith.constant"() {value = 0 : index} : () -> index
    %cols = "arith.constant"() {value = 32 : index} : () -> index
    %one = "arith.constant"() {value = 1 : index} : () -> index
    "loop.for"(%z, %cols, %one) ({
    ^bb1(%j: index):
      %x = "mem.load"(%a, %j, %i) : (memref<32x16xf32>, index, index) -> f32
      "mem.store"(%x, %out, %i, %j) : (f32, memref<16x32xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel, tile = array<i64: 16, 8>} : (index, index, index) -> ()
  func.return
}

// -----

// Bounds the block does not divide: the mark is dropped, the loops stay.

// CHECK-LABEL: func.func @ragged
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK-NEXT: "mem.load"(%arg0, %[[J]], %[[I]])
// CHECK: }) {parallel} : (index, index, index) -> ()
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel} : (index, index, index) -> ()
func.func @ragged(%a: memref<24x16xf32>, %out: memref<16x24xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %rows = "arith.constant"() {value = 16 : index} : () -> index
  %cols = "arith.constant"() {value = 24 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%lb, %rows, %st) ({
  ^bb0(%i: index):
    "loop.for"(%lb, %cols, %st) ({
    ^bb1(%j: index):
      %x = "mem.load"(%a, %j, %i) : (memref<24x16xf32>, index, index) -> f32
      "mem.store"(%x, %out, %i, %j) : (f32, memref<16x24xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {parallel, tile = array<i64: 16, 8>} : (index, index, index) -> ()
  func.return
}

// -----

// Ops other than constants beside the inner loop: the mark is dropped.

// CHECK-LABEL: func.func @not_a_pair
// CHECK-COUNT-2: "loop.for"
// CHECK-NOT: "loop.for"
// CHECK-NOT: tile
func.func @not_a_pair(%a: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %n = "arith.constant"() {value = 16 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%lb, %n, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i, %i) : (memref<16x16xf32>, index, index) -> f32
    "loop.for"(%lb, %n, %st) ({
    ^bb1(%j: index):
      "mem.store"(%x, %out, %i, %j) : (f32, memref<16x16xf32>, index, index) -> ()
      "loop.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  }) {tile = array<i64: 16, 8>} : (index, index, index) -> ()
  func.return
}
