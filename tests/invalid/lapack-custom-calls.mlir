// RUN: not strata opt %s --split-input-file --xla-lapack-custom-calls 2>&1 | FileCheck %s

// Regressions from fuzzing (tests/invalid/FUZZING.md, B20): the LAPACK custom calls JAX
// emits became xla.triangular_solve / xla.cholesky / xla.lu without a check, so a call
// whose operands do not fit (or whose 'side' was not 'L' or 'R') gave "internal compiler
// error: IR is invalid after pass 'xla-lapack-custom-calls'".

// side = 'R' (82): b's columns must match a, but b is 5x2 against a 5x5 a.
func.func @trsm_shapes(%a: tensor<3x5x5xf32>, %b: tensor<3x5x2xf32>) -> tensor<3x5x2xf32> {
  // CHECK-NOT: internal compiler error
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.triangular_solve' op a is 5x5 but b has 2 columns (custom_call @lapack_strsm_ffi as 'xla.triangular_solve')
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}} : (tensor<3x5x5xf32>, tensor<3x5x2xf32>) -> tensor<3x5x2xf32>
  return %0 : tensor<3x5x2xf32>
}

// -----

// side = '4' (52), the byte the fuzzer changed.
func.func @trsm_side(%a: tensor<3x5x5xf32>, %b: tensor<3x5x2xf32>) -> tensor<3x5x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op has a malformed or missing 'side' in mhlo.backend_config
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 52 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}} : (tensor<3x5x5xf32>, tensor<3x5x2xf32>) -> tensor<3x5x2xf32>
  return %0 : tensor<3x5x2xf32>
}

// -----

// potrf of a non-square matrix.
func.func @potrf_shape(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<i32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.cholesky' op {{.*}}(custom_call @lapack_spotrf_ffi as 'xla.cholesky')
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<i32>
}
