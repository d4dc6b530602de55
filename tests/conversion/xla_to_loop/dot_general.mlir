// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.dot_general on f32/f64 with one contracting dimension calls the
// runtime's GEMM with a strata_abi::GemmDesc of the operands' strides, as a
// constant of 42 words: [batch rank, batch sizes (8), lhs/rhs/out batch
// strides (8 each), m, k, n, lhs row/col strides, rhs row/col strides, out
// row/col strides].

// CHECK: func.func private @strata_rt_gemm_f32(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>)
// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[0, {{(0, ){32}2}}, 3, 4, 3, 1, 4, 1, 4, 1]> : tensor<42xi64>}
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x4xf32>, %[[C:.*]]: memref<2x4xf32>)
// CHECK: %[[DESC:.*]] = "mem.get_global"() {name = @[[D]]}
// CHECK: "func.call"(%[[DESC]], %[[A]], %[[B]], %[[C]]) {callee = @strata_rt_gemm_f32}
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Batch dimensions are described by their sizes and strides.
// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[1, 5, {{(0, ){7}6}}, {{(0, ){7}12}}, {{(0, ){7}8}}, {{(0, ){7}2}}, 3, 4, 3, 1, 4, 1, 4, 1]> : tensor<42xi64>}
// CHECK-LABEL: func.func @batched
// CHECK: "func.call"(%{{.*}}, %arg0, %arg1, %arg2) {callee = @strata_rt_gemm_f32}
func.func @batched(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// Other element types: a loop nest over (batch, lhs free, contracting, rhs
// free), innermost over the rhs free dimension, so the inner loop is
// contiguous in rhs and output. Narrow floats (here f16) accumulate in an f32
// scratch buffer, zeroed first, and are rounded once into the result at the
// end (as XLA:CPU does).

// CHECK-LABEL: func.func @matmul_f16
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf16>, %[[B:.*]]: memref<3x4xf16>, %[[C:.*]]: memref<2x4xf16>)
// CHECK: %[[ACC:.*]] = "mem.alloc"() : () -> memref<2x4xf32>
// CHECK: "mem.store"(%{{.*}}, %[[ACC]]
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[K:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[K]])
// CHECK: %[[XW:.*]] = "arith.extf"(%[[X]]) : (f16) -> f32
// CHECK: %[[OLD:.*]] = "mem.load"(%[[ACC]], %[[I]], %[[J]])
// CHECK: %[[Y:.*]] = "mem.load"(%[[B]], %[[K]], %[[J]])
// CHECK: %[[YW:.*]] = "arith.extf"(%[[Y]]) : (f16) -> f32
// CHECK: %[[P:.*]] = "arith.mulf"(%[[XW]], %[[YW]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[P]])
// CHECK: "mem.store"(%[[NEW]], %[[ACC]], %[[I]], %[[J]])
// CHECK: %[[SUM:.*]] = "mem.load"(%[[ACC]]
// CHECK: %[[ROUNDED:.*]] = "arith.truncf"(%[[SUM]]) : (f32) -> f16
// CHECK: "mem.store"(%[[ROUNDED]], %[[C]]
// CHECK: "mem.dealloc"(%[[ACC]])
func.func @matmul_f16(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<2x4xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
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

// -----

// Unrolled by four along the contracting dimension, the lhs elements of a
// step are read once, before the loop over the rhs-free dimension (a fused
// lhs would otherwise redo its index arithmetic for every result element).

// CHECK-LABEL: func.func @lhs_outside_row
// CHECK: "mem.store"
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[FOUR:.*]] = "arith.constant"() {value = 4 : index}
// CHECK-NEXT: "loop.for"(%{{.*}}, %{{.*}}, %[[FOUR]])
// CHECK-COUNT-4: "mem.load"(%arg0, %[[I]], %{{.*}}) : (memref<3x8xi32>, index, index) -> i32
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK-NOT: "mem.load"(%arg0
// CHECK: "mem.store"
func.func @lhs_outside_row(%a: tensor<3x8xi32>, %b: tensor<8x5xi32>) -> tensor<3x5xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x8xi32>, tensor<8x5xi32>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}
