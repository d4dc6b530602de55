// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.sort: every line along `dimension` is merge-sorted, the values
// themselves moving. The result starts as the operand's line; runs of width
// 1, 2, 4, ... of the result are merged into a scratch buffer, the
// comparator inlined as comparator(right, left): the right element goes
// first only when it compares less, so ties keep their order (stable). The
// scratch is copied back after every pass.

// CHECK-LABEL: func.func @sort_rows
// CHECK-SAME: (%[[A:.*]]: memref<2x5xf32>, %[[OUT:.*]]: memref<2x5xf32>)
// CHECK: %[[SCRATCH:.*]] = "mem.alloc"() : () -> memref<5xf32>
// CHECK: %[[WIDTH:.*]] = "mem.alloca"() : () -> memref<index>
// The result starts as the operand.
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[ROW:[a-z0-9]+]], %[[K:[a-z0-9]+]])
// CHECK: "mem.store"(%[[X]], %[[OUT]], %[[ROW]], %[[K]])
// One level per width, runs merged pairwise.
// CHECK: "loop.while"
// CHECK: "loop.condition"
// CHECK: %[[W:.*]] = "mem.load"(%[[WIDTH]])
// CHECK: %[[PAIR:.*]] = "arith.addi"(%[[W]], %[[W]])
// CHECK: "loop.for"(%{{.*}}, %{{.*}}, %[[PAIR]])
// CHECK: %[[LEFT:.*]] = "mem.load"(%[[OUT]], %[[ROW]], %{{.*}})
// CHECK: %[[RIGHT:.*]] = "mem.load"(%[[OUT]], %[[ROW]], %{{.*}})
// CHECK: %[[LESS:.*]] = "arith.cmpf"(%[[RIGHT]], %[[LEFT]]) {predicate = "olt"}
// CHECK: %[[EITHER:.*]] = "arith.ori"(%{{.*}}, %[[LESS]])
// CHECK: %[[TAKE:.*]] = "arith.andi"(%{{.*}}, %[[EITHER]])
// CHECK: %[[PICK:.*]] = "arith.select"(%[[TAKE]], %[[RIGHT]], %[[LEFT]])
// CHECK: "mem.store"(%[[PICK]], %[[SCRATCH]]
// The copy back.
// CHECK: %[[V:.*]] = "mem.load"(%[[SCRATCH]], %[[I:[a-z0-9]+]])
// CHECK: "mem.store"(%[[V]], %[[OUT]], %[[ROW]], %[[I]])
// CHECK: "mem.store"(%[[PAIR]], %[[WIDTH]])
// CHECK: "mem.dealloc"(%[[SCRATCH]])
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
// every operand's values move with the same choices (argsort: the iota's
// values are merged alongside, each operand through its own scratch).

// CHECK-LABEL: func.func @argsort
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xi32>)
// CHECK: "mem.alloc"() : () -> memref<4xf32>
// CHECK: %[[GT:.*]] = "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = "ogt"}
// CHECK: %[[PICK:.*]] = "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (i1, i32, i32) -> i32
// CHECK: "mem.store"(%[[PICK]], %[[S1:[0-9]+]], %{{.*}}) : (i32, memref<4xi32>, index) -> ()
// CHECK: %[[V:.*]] = "mem.load"(%[[S1]], %{{.*}}) : (memref<4xi32>, index) -> i32
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
