// RUN: strata opt %s --xla-lapack-custom-calls | FileCheck %s

// JAX's LAPACK trsm custom call becomes xla.triangular_solve with the
// backend config's side ('R' = 82), uplo ('U' = 85), trans_x ('T' = 84)
// and diag ('U' = 85); the layouts and sharding rule are dropped.

// CHECK-LABEL: func.func @trsm
// CHECK-NOT: custom_call
// CHECK: %[[R:.*]] = "xla.triangular_solve"(%arg0, %arg1) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: "func.return"(%[[R]])
func.func @trsm(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=4, k=4, l=3, m=4, n=3, o=4}, custom>} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
