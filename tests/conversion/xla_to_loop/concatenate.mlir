// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.concatenate: one loop nest per operand, each storing into the output
// at the operand's offset along the concatenated dimension; the nests are
// parallel (each operand's elements fill their own slots).

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<2x5xf32>, %[[OUT:.*]]: memref<2x8xf32>)
// CHECK-NOT: "mem.alloc"
// CHECK: ^{{.*}}(%[[I0:.*]]: index):
// CHECK: ^{{.*}}(%[[J0:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I0]], %[[J0]])
// CHECK: %[[OFF0:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[P0:.*]] = "arith.addi"(%[[J0]], %[[OFF0]])
// CHECK: "mem.store"(%[[X]], %[[OUT]], %[[I0]], %[[P0]])
// CHECK: }) {parallel}
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel}
// CHECK: ^{{.*}}(%[[I1:.*]]: index):
// CHECK: ^{{.*}}(%[[J1:.*]]: index):
// CHECK: %[[Y:.*]] = "mem.load"(%[[B]], %[[I1]], %[[J1]])
// CHECK: %[[OFF1:.*]] = "arith.constant"() {value = 3 : index}
// CHECK: %[[P1:.*]] = "arith.addi"(%[[J1]], %[[OFF1]])
// CHECK: "mem.store"(%[[Y]], %[[OUT]], %[[I1]], %[[P1]])
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Element-wise operands fuse into the per-operand loop nests.

// CHECK-LABEL: func.func @concat_fused
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: "mem.alloc"
// CHECK: "arith.exp"
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// CHECK: "arith.negf"
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
func.func @concat_fused(%a: tensor<4xf32>) -> tensor<8xf32> {
  %e = stablehlo.exponential %a : tensor<4xf32>
  %n = stablehlo.negate %a : tensor<4xf32>
  %0 = stablehlo.concatenate %e, %n, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
