// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.map is element-wise: one loop nest over the shape, each operand read
// at the same index, the computation region inlined on those scalars, and
// its returned value stored to the result.

// CHECK-LABEL: func.func @map_two_operands
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[J]])
// CHECK: %[[Y:.*]] = "mem.load"(%[[B]], %[[I]], %[[J]])
// CHECK: %[[M:.*]] = "arith.mulf"(%[[X]], %[[Y]])
// CHECK: %[[S:.*]] = "arith.addf"(%[[M]], %[[X]])
// CHECK: "mem.store"(%[[S]], %[[OUT]], %[[I]], %[[J]])
func.func @map_two_operands(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.multiply %x, %y : tensor<f32>
    %s = stablehlo.add %m, %x : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The computation may change the element type: the result is stored in the
// result's type.

// CHECK-LABEL: func.func @map_convert
// CHECK-SAME: (%[[A:.*]]: memref<4xi32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]]) : (memref<4xi32>, index) -> i32
// CHECK: %[[F:.*]] = "arith.sitofp"(%[[X]]) : (i32) -> f32
// CHECK: "mem.store"(%[[F]], %[[OUT]], %[[I]]) : (f32, memref<4xf32>, index) -> ()
func.func @map_convert(%a: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<i32>):
    %c = stablehlo.convert %x : (tensor<i32>) -> tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
