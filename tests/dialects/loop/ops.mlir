// RUN: strata opt %s | FileCheck %s
// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the loop dialect (generic syntax).

// CHECK-LABEL: func.func @nest
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[C:.*]]: i1, %[[M:.*]]: memref<8x8xf32>)
func.func @nest(%lb: index, %ub: index, %c: i1, %m: memref<8x8xf32>) {
  %step = "arith.constant"() {value = 1 : index} : () -> index
  // CHECK: "loop.for"(%[[LB]], %[[UB]], %[[STEP:.*]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
  "loop.for"(%lb, %ub, %step) ({
  ^bb0(%i: index):
    // CHECK: "loop.for"(%[[LB]], %[[UB]], %[[STEP]]) ({
    // CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
    "loop.for"(%lb, %ub, %step) ({
    ^bb1(%j: index):
      // The body sees values of the enclosing blocks.
      // CHECK: "mem.load"(%[[M]], %[[I]], %[[J]])
      %v = "mem.load"(%m, %i, %j) : (memref<8x8xf32>, index, index) -> f32
      // CHECK: "mem.store"(%{{.*}}, %[[M]], %[[J]], %[[I]])
      "mem.store"(%v, %m, %j, %i) : (f32, memref<8x8xf32>, index, index) -> ()
      // CHECK: "loop.yield"() : () -> ()
      "loop.yield"() : () -> ()
    // CHECK-NEXT: }) {parallel} : (index, index, index) -> ()
    }) {parallel} : (index, index, index) -> ()
    "loop.yield"() : () -> ()
  // CHECK: }) : (index, index, index) -> ()
  }) : (index, index, index) -> ()
  func.return
}

// CHECK-LABEL: func.func @branches
// CHECK-SAME: (%[[C:.*]]: i1, %[[M:.*]]: memref<f32>)
func.func @branches(%c: i1, %m: memref<f32>) {
  // An if with both branches.
  // CHECK: "loop.if"(%[[C]]) ({
  "loop.if"(%c) ({
    // CHECK: %[[ONE:.*]] = "arith.constant"() {value = 1.0 : f32} : () -> f32
    %one = "arith.constant"() {value = 1.0 : f32} : () -> f32
    // CHECK: "mem.store"(%[[ONE]], %[[M]])
    "mem.store"(%one, %m) : (f32, memref<f32>) -> ()
    "loop.yield"() : () -> ()
  // CHECK: }, {
  }, {
    // CHECK: "arith.constant"() {value = 2.0 : f32} : () -> f32
    %two = "arith.constant"() {value = 2.0 : f32} : () -> f32
    "mem.store"(%two, %m) : (f32, memref<f32>) -> ()
    // CHECK: "loop.yield"() : () -> ()
    "loop.yield"() : () -> ()
  // CHECK: }) : (i1) -> ()
  }) : (i1) -> ()
  // An if without else: the else region has no blocks.
  // CHECK: "loop.if"(%[[C]]) ({
  // CHECK-NEXT: "loop.yield"() : () -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: }) : (i1) -> ()
  "loop.if"(%c) ({
    "loop.yield"() : () -> ()
  }, {
  }) : (i1) -> ()
  func.return
}
