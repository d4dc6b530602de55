// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the linear-algebra ops ops.mlir leaves out: triangular_solve, lu, eig, hessenberg, tridiagonal and tridiagonal_solve.

// CHECK-LABEL: func.func @triangular_solve
// CHECK-SAME: (%[[A:.*]]: tensor<3x3xf32>, %[[B:.*]]: tensor<3x2xf32>, %[[C:.*]]: tensor<2x3xf32>)
func.func @triangular_solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  // CHECK: %[[L:.*]] = "xla.triangular_solve"(%[[A]], %[[B]]) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  // CHECK: %[[R:.*]] = "xla.triangular_solve"(%[[A]], %[[C]]) {left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true} : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.triangular_solve"(%a, %c) <{left_side = false, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[L]], %[[R]])
  return %0, %1 : tensor<3x2xf32>, tensor<2x3xf32>
}

// The decompositions below have no StableHLO spelling (`xla-lapack-custom-calls`
// makes them): generic syntax.

// A batch of wide matrices: min(m, n) pivots per matrix.
// CHECK-LABEL: func.func @lu
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf32>)
func.func @lu(%a: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2xi32>) {
  // CHECK: %[[LU:.*]]:3 = "xla.lu"(%[[A]]) : (tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2xi32>)
  %0:3 = "xla.lu"(%a) : (tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2xi32>)
  // CHECK: "func.return"(%[[LU]]#0, %[[LU]]#1, %[[LU]]#2)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2xi32>
}

// CHECK-LABEL: func.func @eig
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x3xf32>, %[[H:.*]]: tensor<3x3xcomplex<f64>>)
func.func @eig(%a: tensor<2x3x3xf32>, %h: tensor<3x3xcomplex<f64>>) -> (tensor<2x3xcomplex<f32>>, tensor<3x3xcomplex<f64>>) {
  // CHECK: %[[E:.*]]:4 = "xla.eig"(%[[A]]) {compute_left_eigenvectors = false, compute_right_eigenvectors = true} : (tensor<2x3x3xf32>) -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2xi32>)
  %0:4 = "xla.eig"(%a) {compute_left_eigenvectors = false, compute_right_eigenvectors = true} : (tensor<2x3x3xf32>) -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<2xi32>)
  // CHECK: %[[F:.*]]:4 = "xla.eig"(%[[H]]) {compute_left_eigenvectors = true, compute_right_eigenvectors = false} : (tensor<3x3xcomplex<f64>>) -> (tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<i32>)
  %1:4 = "xla.eig"(%h) {compute_left_eigenvectors = true, compute_right_eigenvectors = false} : (tensor<3x3xcomplex<f64>>) -> (tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<i32>)
  // CHECK: "func.return"(%[[E]]#0, %[[F]]#1)
  return %0#0, %1#1 : tensor<2x3xcomplex<f32>>, tensor<3x3xcomplex<f64>>
}

// CHECK-LABEL: func.func @hessenberg
// CHECK-SAME: (%[[A:.*]]: tensor<3x3xf64>)
func.func @hessenberg(%a: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<2xf64>) {
  // CHECK: %[[H:.*]]:2 = "xla.hessenberg"(%[[A]]) : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<2xf64>)
  %0:2 = "xla.hessenberg"(%a) : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<2xf64>)
  // CHECK: "func.return"(%[[H]]#0, %[[H]]#1)
  return %0#0, %0#1 : tensor<3x3xf64>, tensor<2xf64>
}

// CHECK-LABEL: func.func @tridiagonal
// CHECK-SAME: (%[[A:.*]]: tensor<3x3xcomplex<f32>>, %[[B:.*]]: tensor<2x3x3xf64>)
func.func @tridiagonal(%a: tensor<3x3xcomplex<f32>>, %b: tensor<2x3x3xf64>) -> (tensor<2xcomplex<f32>>, tensor<2x3xf64>) {
  // CHECK: %[[T:.*]]:4 = "xla.tridiagonal"(%[[A]]) {lower = true} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>)
  %0:4 = "xla.tridiagonal"(%a) {lower = true} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>)
  // CHECK: %[[U:.*]]:4 = "xla.tridiagonal"(%[[B]]) {lower = false} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2x3xf64>, tensor<2x2xf64>, tensor<2x2xf64>)
  %1:4 = "xla.tridiagonal"(%b) {lower = false} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2x3xf64>, tensor<2x2xf64>, tensor<2x2xf64>)
  // CHECK: "func.return"(%[[T]]#3, %[[U]]#1)
  return %0#3, %1#1 : tensor<2xcomplex<f32>>, tensor<2x3xf64>
}

// CHECK-LABEL: func.func @tridiagonal_solve
// CHECK-SAME: (%[[DL:.*]]: tensor<4xf32>, %[[D:.*]]: tensor<4xf32>, %[[DU:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4x2xf32>)
func.func @tridiagonal_solve(%dl: tensor<4xf32>, %d: tensor<4xf32>, %du: tensor<4xf32>, %b: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<i32>) {
  // CHECK: %[[S:.*]]:5 = "xla.tridiagonal_solve"(%[[DL]], %[[D]], %[[DU]], %[[B]]) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<i32>)
  %0:5 = "xla.tridiagonal_solve"(%dl, %d, %du, %b) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<i32>)
  // CHECK: "func.return"(%[[S]]#3, %[[S]]#4)
  return %0#3, %0#4 : tensor<4x2xf32>, tensor<i32>
}
