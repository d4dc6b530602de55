// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.dot_general: the output is zeroed, then accumulated in place by a loop
// nest over (batch, lhs free, contracting, rhs free), innermost over the rhs
// free dimension so the inner loop is contiguous in rhs and the output.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<2x4xf32>)
// CHECK-NOT: "mem.alloc"
// The output is zeroed first.
// CHECK: %[[Z:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: "mem.store"(%[[Z]], %[[C]]
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[K:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[K]])
// CHECK: %[[Y:.*]] = "mem.load"(%[[B]], %[[K]], %[[J]])
// CHECK: %[[P:.*]] = "arith.mulf"(%[[X]], %[[Y]])
// CHECK: %[[OLD:.*]] = "mem.load"(%[[C]], %[[I]], %[[J]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[P]])
// CHECK: "mem.store"(%[[NEW]], %[[C]], %[[I]], %[[J]])
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @batched
// CHECK-SAME: (%[[A:.*]]: memref<5x2x3xf32>, %[[B:.*]]: memref<5x3x4xf32>, %[[C:.*]]: memref<5x2x4xf32>)
// CHECK: "arith.constant"() {value = 0.0 : f32}
// CHECK-NEXT: "mem.store"(%{{.*}}, %[[C]],
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[N:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[K:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: "mem.load"(%[[A]], %[[N]], %[[I]], %[[K]])
// CHECK: "mem.load"(%[[B]], %[[N]], %[[K]], %[[J]])
// CHECK: "mem.store"(%{{.*}}, %[[C]], %[[N]], %[[I]], %[[J]])
func.func @batched(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// Integer dot products accumulate with integer ops.

// CHECK-LABEL: func.func @int_vecmat
// CHECK: "arith.muli"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: "arith.addi"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
func.func @int_vecmat(%a: tensor<3xi32>, %b: tensor<3x4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.dot %a, %b : (tensor<3xi32>, tensor<3x4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
