// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.sort: the operands are copied into the results, then each line along
// `dimension` is insertion-sorted in place: element i moves down while the
// comparator, inlined on scalars as comparator(x[j], x[j - 1]), holds. Equal
// elements never swap, so the sort is stable. All operands swap together.

// CHECK-LABEL: func.func @sort_rows
// CHECK-SAME: (%[[A:.*]]: memref<2x5xf32>, %[[OUT:.*]]: memref<2x5xf32>)
// The copy.
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[J]])
// CHECK: "mem.store"(%[[X]], %[[OUT]], %[[I]], %[[J]])
// The insertion sort of each row.
// CHECK: %[[POS:.*]] = "mem.alloca"() : () -> memref<index>
// CHECK: %[[ROWS:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: "loop.for"(%{{.*}}, %[[ROWS]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[R:.*]]: index):
// CHECK: %[[TO:.*]] = "arith.constant"() {value = 5 : index}
// CHECK: "loop.for"(%{{.*}}, %[[TO]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[K:.*]]: index):
// CHECK-NEXT: "mem.store"(%[[K]], %[[POS]])
// CHECK: "loop.while"() ({
// CHECK: %[[P:.*]] = "mem.load"(%[[POS]])
// CHECK: %[[ZERO:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[MORE:.*]] = "arith.cmpi"(%[[P]], %[[ZERO]]) {predicate = "sgt"}
// CHECK: %[[PM1:.*]] = "arith.subi"(%[[P]], %{{.*}})
// CHECK: %[[PREV:.*]] = "arith.select"(%[[MORE]], %[[PM1]], %[[ZERO]])
// CHECK: %[[CUR:.*]] = "mem.load"(%[[OUT]], %[[R]], %[[P]])
// CHECK: %[[BEFORE:.*]] = "mem.load"(%[[OUT]], %[[R]], %[[PREV]])
// CHECK: %[[LESS:.*]] = "arith.cmpf"(%[[CUR]], %[[BEFORE]]) {predicate = "olt"}
// CHECK: %[[GO:.*]] = "arith.andi"(%[[MORE]], %[[LESS]])
// CHECK: "loop.condition"(%[[GO]])
// CHECK: }, {
// CHECK: %[[Q:.*]] = "mem.load"(%[[POS]])
// CHECK: %[[QM1:.*]] = "arith.subi"(%[[Q]], %{{.*}})
// CHECK: %[[U:.*]] = "mem.load"(%[[OUT]], %[[R]], %[[Q]])
// CHECK: %[[V:.*]] = "mem.load"(%[[OUT]], %[[R]], %[[QM1]])
// CHECK: "mem.store"(%[[V]], %[[OUT]], %[[R]], %[[Q]])
// CHECK: "mem.store"(%[[U]], %[[OUT]], %[[R]], %[[QM1]])
// CHECK: "mem.store"(%[[QM1]], %[[POS]])
// CHECK: "loop.yield"
func.func @sort_rows(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Argsort (descending): keys and iota indices are sorted together; the
// comparator only looks at the keys, and every swap moves both.

// CHECK-LABEL: func.func @argsort
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xi32>)
// CHECK: "loop.while"() ({
// CHECK: %[[P:.*]] = "mem.load"(%[[POS:.*]]) : (memref<index>) -> index
// CHECK: %[[PREV:.*]] = "arith.select"
// CHECK: %[[K1:.*]] = "mem.load"(%[[KEYS:.*]], %[[P]]) : (memref<4xf32>, index) -> f32
// CHECK: %[[K0:.*]] = "mem.load"(%[[KEYS]], %[[PREV]]) : (memref<4xf32>, index) -> f32
// CHECK: %[[GT:.*]] = "arith.cmpf"(%[[K1]], %[[K0]]) {predicate = "ogt"}
// CHECK: "loop.condition"
// CHECK: }, {
// CHECK: %[[Q:.*]] = "mem.load"(%[[POS]])
// CHECK: %[[QM1:.*]] = "arith.subi"(%[[Q]], %{{.*}})
// CHECK: "mem.store"(%{{.*}}, %[[KEYS]], %[[Q]])
// CHECK: "mem.store"(%{{.*}}, %[[KEYS]], %[[QM1]])
// CHECK: %[[I1:.*]] = "mem.load"(%[[OUT]], %[[Q]])
// CHECK: %[[I0:.*]] = "mem.load"(%[[OUT]], %[[QM1]])
// CHECK: "mem.store"(%[[I0]], %[[OUT]], %[[Q]])
// CHECK: "mem.store"(%[[I1]], %[[OUT]], %[[QM1]])
// CHECK: "mem.store"(%[[QM1]], %[[POS]])
func.func @argsort(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1:2 = "stablehlo.sort"(%a, %0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %1#1 : tensor<4xi32>
}
