// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.sort: every line along `dimension` is merge-sorted as a permutation.
// perm starts as the identity; runs of width 1, 2, 4, ... are merged into a
// scratch buffer, the comparator inlined on the operands read through the
// permutation as comparator(right, left): the right element goes first only
// when it compares less, so ties keep their order (stable). The results are
// gathered through the final permutation, all operands alike.

// CHECK-LABEL: func.func @sort_rows
// CHECK-SAME: (%[[A:.*]]: memref<2x5xf32>, %[[OUT:.*]]: memref<2x5xf32>)
// CHECK: %[[PERM:.*]] = "mem.alloc"() : () -> memref<5xindex>
// CHECK: %[[MERGED:.*]] = "mem.alloc"() : () -> memref<5xindex>
// CHECK: %[[WIDTH:.*]] = "mem.alloca"() : () -> memref<index>
// The identity permutation.
// CHECK: "mem.store"(%[[K:.*]], %[[PERM]], %[[K]])
// One level per width, runs merged pairwise.
// CHECK: "loop.while"
// CHECK: "loop.condition"
// CHECK: %[[W:.*]] = "mem.load"(%[[WIDTH]])
// CHECK: %[[PAIR:.*]] = "arith.addi"(%[[W]], %[[W]])
// CHECK: "loop.for"(%{{.*}}, %{{.*}}, %[[PAIR]])
// CHECK: %[[PI:.*]] = "mem.load"(%[[PERM]]
// CHECK: %[[PJ:.*]] = "mem.load"(%[[PERM]]
// CHECK: %[[RIGHT:.*]] = "mem.load"(%[[A]], %{{.*}}, %[[PJ]])
// CHECK: %[[LEFT:.*]] = "mem.load"(%[[A]], %{{.*}}, %[[PI]])
// CHECK: %[[LESS:.*]] = "arith.cmpf"(%[[RIGHT]], %[[LEFT]]) {predicate = "olt"}
// CHECK: %[[EITHER:.*]] = "arith.ori"(%{{.*}}, %[[LESS]])
// CHECK: %[[TAKE:.*]] = "arith.andi"(%{{.*}}, %[[EITHER]])
// CHECK: %[[PICK:.*]] = "arith.select"(%[[TAKE]], %[[PJ]], %[[PI]])
// CHECK: "mem.store"(%[[PICK]], %[[MERGED]]
// CHECK: "mem.copy"(%[[MERGED]], %[[PERM]])
// CHECK: "mem.store"(%[[PAIR]], %[[WIDTH]])
// The gather through the permutation.
// CHECK: %[[FROM:.*]] = "mem.load"(%[[PERM]]
// CHECK: %[[V:.*]] = "mem.load"(%[[A]], %{{.*}}, %[[FROM]])
// CHECK: "mem.store"(%[[V]], %[[OUT]]
// CHECK: "mem.dealloc"(%[[PERM]])
// CHECK: "mem.dealloc"(%[[MERGED]])
func.func @sort_rows(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Several operands: the comparator sees (lhs, rhs) of every operand, and
// every result is gathered through the same permutation (argsort: the
// iota operand's values are read at the permuted index).

// CHECK-LABEL: func.func @argsort
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xi32>)
// CHECK: %[[PERM:.*]] = "mem.alloc"() : () -> memref<4xindex>
// CHECK: "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = "ogt"}
// CHECK: %[[FROM:.*]] = "mem.load"(%[[PERM]]
// CHECK: %[[V:.*]] = "mem.load"(%{{.*}}, %[[FROM]]) : (memref<4xi32>, index) -> i32
// CHECK: "mem.store"(%[[V]], %[[OUT]]
func.func @argsort(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %1:2 = "stablehlo.sort"(%a, %0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %1#1 : tensor<4xi32>
}
