// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.scatter: the operand is first copied into the result (a mem.copy when it
// is a buffer: none when a donated argument is the result's buffer), then one loop
// nest over the updates reads each scatter index (not clamped, unlike
// gather), tests that the whole update window lies in the operand
// (0 <= start <= dim - window size, as XLA:CPU), and under that loop.if
// applies the update computation to the result element and the update
// element. A window that does not fit is skipped whole.

// A segment sum (x.at[idx].add(v)): windows of one element.

// CHECK-LABEL: func.func @segment_sum
// CHECK-SAME: (%[[A:.*]]: memref<3xf32>, %[[IDX:.*]]: memref<6x1xi32>, %[[UPD:.*]]: memref<6xf32>, %[[OUT:.*]]: memref<3xf32>)
// CHECK: "mem.copy"(%[[A]], %[[OUT]])
// CHECK: %[[N:.*]] = "arith.constant"() {value = 6 : index}
// CHECK: "loop.for"(%{{.*}}, %[[N]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[U:.*]]: index):
// CHECK: %[[S:.*]] = "mem.load"(%[[IDX]], %[[U]], %{{.*}}) : (memref<6x1xi32>, index, index) -> i32
// CHECK: %[[SW:.*]] = "arith.extsi"(%[[S]]) : (i32) -> i64
// CHECK: %[[T:.*]] = "arith.index_cast"(%[[SW]]) : (i64) -> index
// CHECK: %[[LAST:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[GE:.*]] = "arith.cmpi"(%[[T]], %{{.*}}) {predicate = "sge"}
// CHECK: %[[LE:.*]] = "arith.cmpi"(%[[T]], %[[LAST]]) {predicate = "sle"}
// CHECK: %[[OK:.*]] = "arith.andi"(%[[GE]], %[[LE]])
// CHECK: %[[IN:.*]] = "arith.andi"(%{{.*}}, %[[OK]])
// CHECK: "loop.if"(%[[IN]]) ({
// CHECK: %[[OLD:.*]] = "mem.load"(%[[OUT]], %[[T]])
// CHECK: %[[V:.*]] = "mem.load"(%[[UPD]], %[[U]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[V]])
// CHECK: "mem.store"(%[[NEW]], %[[OUT]], %[[T]])
// CHECK: }, {
// CHECK-NEXT: })
func.func @segment_sum(%a: tensor<3xf32>, %i: tensor<6x1xi32>, %u: tensor<6xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
    %1 = stablehlo.add %arg0, %arg1 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<3xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Setting whole rows (x.at[idx].set(rows)): the update window walks the
// row, the row index comes from scatter_indices; the update computation
// returns the update, so the old value is not combined.

// CHECK-LABEL: func.func @set_rows
// CHECK-SAME: (%[[A:.*]]: memref<5x4xf32>, %[[IDX:.*]]: memref<2x1xi32>, %[[UPD:.*]]: memref<2x4xf32>, %[[OUT:.*]]: memref<5x4xf32>)
// CHECK: "mem.copy"(%[[A]], %[[OUT]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[U:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[W:.*]]: index):
// CHECK: %[[S:.*]] = "mem.load"(%[[IDX]], %[[U]], %{{.*}})
// CHECK: %[[SW:.*]] = "arith.extsi"(%[[S]])
// CHECK: %[[ROW:.*]] = "arith.index_cast"(%[[SW]])
// CHECK: %[[LASTROW:.*]] = "arith.constant"() {value = 4 : index}
// CHECK: %[[GE:.*]] = "arith.cmpi"(%[[ROW]], %{{.*}}) {predicate = "sge"}
// CHECK: %[[LE:.*]] = "arith.cmpi"(%[[ROW]], %[[LASTROW]]) {predicate = "sle"}
// CHECK: "arith.andi"(%[[GE]], %[[LE]])
// CHECK: {predicate = "sle"}
// CHECK: "arith.andi"
// CHECK-NEXT: %[[IN:.*]] = "arith.andi"
// CHECK-NEXT: %[[COL:.*]] = "arith.addi"(%{{.*}}, %[[W]])
// CHECK-NEXT: "loop.if"(%[[IN]]) ({
// CHECK: %[[V:.*]] = "mem.load"(%[[UPD]], %[[U]], %[[W]])
// CHECK-NOT: "arith.
// CHECK: "mem.store"(%[[V]], %[[OUT]], %[[ROW]], %[[COL]])
// CHECK: }, {
func.func @set_rows(%a: tensor<5x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x4xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
    stablehlo.return %arg1 : tensor<f32>
  }) : (tensor<5x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}
