// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.gather: one loop nest over the result. Each start index is read from
// start_indices, widened to index, and clamped to [0, operand size - slice
// size] (as XLA does, so a slice never reads out of bounds); the operand is
// then read at clamped start + offset and stored to the result.

// Rows of a matrix (jnp.take along axis 0): the batch loop reads the index,
// the offset loop walks the row.

// CHECK-LABEL: func.func @take_rows
// CHECK-SAME: (%[[A:.*]]: memref<5x4xf32>, %[[IDX:.*]]: memref<3x1xi32>, %[[OUT:.*]]: memref<3x4xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[O:.*]]: index):
// CHECK: %[[K:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[S:.*]] = "mem.load"(%[[IDX]], %[[B]], %[[K]]) : (memref<3x1xi32>, index, index) -> i32
// CHECK: %[[SW:.*]] = "arith.extsi"(%[[S]]) : (i32) -> i64
// CHECK: %[[SI:.*]] = "arith.index_cast"(%[[SW]]) : (i64) -> index
// CHECK: %[[LO:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[HI:.*]] = "arith.constant"() {value = 4 : index}
// CHECK: %[[MIN:.*]] = "arith.minsi"(%[[SI]], %[[HI]])
// CHECK: %[[START:.*]] = "arith.maxsi"(%[[MIN]], %[[LO]])
// CHECK: %[[COL:.*]] = "arith.addi"(%{{.*}}, %[[O]])
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[START]], %[[COL]])
// CHECK: "mem.store"(%[[X]], %[[OUT]], %[[B]], %[[O]])
func.func @take_rows(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// 2x2 patches at two-component start indices: each component is clamped
// against its own dimension (4 - 2 and 5 - 2).

// CHECK-LABEL: func.func @patches
// CHECK-SAME: (%[[A:.*]]: memref<4x5xf32>, %[[IDX:.*]]: memref<3x2xi64>, %[[OUT:.*]]: memref<3x2x2xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[R:.*]] = "mem.load"(%[[IDX]], %[[B]], %{{.*}}) : (memref<3x2xi64>, index, index) -> i64
// CHECK: %[[RI:.*]] = "arith.index_cast"(%[[R]])
// CHECK: %[[C:.*]] = "mem.load"(%[[IDX]], %[[B]], %{{.*}}) : (memref<3x2xi64>, index, index) -> i64
// CHECK: %[[CI:.*]] = "arith.index_cast"(%[[C]])
// CHECK: %[[LO:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[RMAX:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[RMIN:.*]] = "arith.minsi"(%[[RI]], %[[RMAX]])
// CHECK: %[[R0:.*]] = "arith.maxsi"(%[[RMIN]], %[[LO]])
// CHECK: %[[CMAX:.*]] = "arith.constant"() {value = 3 : index}
// CHECK: %[[CMIN:.*]] = "arith.minsi"(%[[CI]], %[[CMAX]])
// CHECK: %[[C0:.*]] = "arith.maxsi"(%[[CMIN]], %[[LO]])
// CHECK: %[[ROW:.*]] = "arith.addi"(%[[R0]], %[[I]])
// CHECK: %[[COL:.*]] = "arith.addi"(%[[C0]], %[[J]])
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[ROW]], %[[COL]])
// CHECK: "mem.store"(%[[X]], %[[OUT]], %[[B]], %[[I]], %[[J]])
func.func @patches(%a: tensor<4x5xf32>, %i: tensor<3x2xi64>) -> tensor<3x2x2xf32> {
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 2>}> : (tensor<4x5xf32>, tensor<3x2xi64>) -> tensor<3x2x2xf32>
  return %0 : tensor<3x2x2xf32>
}

// -----

// Batching dimensions (vmap of a take): operand dimension 0 follows the
// result's batch index directly; only the start index is clamped (to 10 - 1).

// CHECK-LABEL: func.func @batched
// CHECK-SAME: (%[[A:.*]]: memref<4x10xf32>, %[[IDX:.*]]: memref<4x1x1xi32>, %[[OUT:.*]]: memref<4x1xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[S:.*]] = "mem.load"(%[[IDX]], %[[B]], %[[J]], %{{.*}})
// CHECK: %[[HI:.*]] = "arith.constant"() {value = 9 : index}
// CHECK: %[[MIN:.*]] = "arith.minsi"(%{{.*}}, %[[HI]])
// CHECK: %[[START:.*]] = "arith.maxsi"(%[[MIN]], %{{.*}})
// CHECK: %[[ROW:.*]] = "arith.addi"(%{{.*}}, %[[B]])
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[ROW]], %[[START]])
// CHECK: "mem.store"(%[[X]], %[[OUT]], %[[B]], %[[J]])
func.func @batched(%a: tensor<4x10xf32>, %i: tensor<4x1x1xi32>) -> tensor<4x1xf32> {
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x10xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
