// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// dynamic_update_slice: the operand is copied to the result, then the update
// is written over it at the start indices, each clamped to [0, operand -
// update] as XLA clamps them (8 - 2 = 6 rows here), so the write never
// leaves the buffer whatever the index holds.

// CHECK-LABEL: func.func @dus
// CHECK-SAME: (%[[X:.*]]: memref<8x4xf32>, %[[U:.*]]: memref<2x4xf32>, %[[I:.*]]: memref<i32>, %[[OUT:.*]]: memref<8x4xf32>)
// CHECK: "mem.copy"(%[[X]], %[[OUT]])
// CHECK: %[[RAW:.*]] = "mem.load"(%[[I]])
// CHECK: %[[WIDE:.*]] = "arith.extsi"(%[[RAW]]) : (i32) -> i64
// CHECK: %[[IDX:.*]] = "arith.index_cast"(%[[WIDE]])
// CHECK: %[[LO:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[HI:.*]] = "arith.constant"() {value = 6 : index}
// CHECK: %[[MIN:.*]] = "arith.minsi"(%[[IDX]], %[[HI]])
// CHECK: %[[ROW0:.*]] = "arith.maxsi"(%[[MIN]], %[[LO]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[R:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[C:.*]]: index):
// CHECK: %[[V:.*]] = "mem.load"(%[[U]], %[[R]], %[[C]])
// CHECK: %[[AT:.*]] = "arith.addi"(%[[R]], %[[ROW0]])
// CHECK: "mem.store"(%[[V]], %[[OUT]], %[[AT]], %{{.*}})

func.func @dus(%x: tensor<8x4xf32>, %u: tensor<2x4xf32>, %i: tensor<i32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %c0 : (tensor<8x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
