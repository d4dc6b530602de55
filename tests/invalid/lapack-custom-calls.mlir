// RUN: not strata opt %s --split-input-file --xla-lapack-custom-calls 2>&1 | FileCheck %s

// JAX's LAPACK custom calls with options, types or batch dimensions that
// do not describe a computation the rewrite knows: a located error each.

func.func @syevd_mode(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) expects 'mode' in mhlo.backend_config to be 'V' or 'N', found 'X' (88)
  %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {mhlo.backend_config = {mode = 88 : ui8, uplo = 76 : ui8}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

func.func @syevd_uplo(%a: tensor<3x3xf64>) -> tensor<3xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) expects 'uplo' in mhlo.backend_config to be 'L' or 'U', found nothing
  %0:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8}} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>, tensor<i32>)
  return %0#1 : tensor<3xf64>
}

// -----

func.func @gesdd_overwrite(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) expects 'mode' in mhlo.backend_config to be 'A', 'S' or 'N', found 'O' (79)
  %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 79 : ui8}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<4x4xf32>, tensor<3x3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

func.func @gesdd_results(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK gesdd) expects 1 operand and 5 results (a, s, u, vt, info), found 1 and 2
  %0:2 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  return %0#1 : tensor<3xf32>
}

// -----

func.func @type_letter(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) expects f64 elements for its 'd' type letter, found f32
  %0:2 = stablehlo.custom_call @lapack_dgeqrf_ffi(%a) {mhlo.backend_config = {}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  return %0#0 : tensor<4x3xf32>
}

// -----

func.func @batch_dims(%a: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) has num_batch_dims "2" but its operand has rank 3 (the batch is all but the last two dimensions)
  %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "2"}} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xf32>)
  return %0#0 : tensor<2x4x3xf32>
}

// -----

func.func @orgqr_operands(%a: tensor<4x3xf64>) -> tensor<4x3xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK, rewritten to 'xla.householder_product') expects 2 operand(s) and 1 result(s), found 1 and 1
  %0 = stablehlo.custom_call @lapack_dorgqr_ffi(%a) {mhlo.backend_config = {}} : (tensor<4x3xf64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// -----

func.func @tau_shape(%a: tensor<4x3xf64>, %t: tensor<4xf64>) -> tensor<4x3xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.householder_product' op needs k <= n <= m for 4 reflectors into 4x3 matrices
  %0 = stablehlo.custom_call @lapack_dorgqr_ffi(%a, %t) {mhlo.backend_config = {}} : (tensor<4x3xf64>, tensor<4xf64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// -----

// Regressions from fuzzing (tests/invalid/FUZZING.md, B20): a call whose operands do not fit
// or whose option bytes are not LAPACK's gave an internal compiler error.

// side = 'R' (82): b's columns must match a, but b is 5x2 against a 5x5 a.
func.func @trsm_shapes(%a: tensor<3x5x5xf32>, %b: tensor<3x5x2xf32>) -> tensor<3x5x2xf32> {
  // CHECK-NOT: internal compiler error
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.triangular_solve' op a is 5x5 but b has 2 columns
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
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.cholesky' op expects a batch of square matrices
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<i32>
}

// -----

// potrf with an uplo that is neither 'L' nor 'U'.
func.func @potrf_uplo(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) expects 'uplo' in mhlo.backend_config to be 'L' or 'U', found 'X' (88)
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 88 : ui8}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<i32>
}

// -----

// geev with a compute_right that is neither 'V' nor 'N'.
func.func @geev_option(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK) expects 'compute_right' in mhlo.backend_config to be 'V' or 'N', found 'Y' (89)
  %0:5 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 89 : ui8}} : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>, tensor<i32>)
  return %0#0 : tensor<4xf32>
}

// -----

// The real geev has five results (wr, wi, vl, vr, info).
func.func @geev_results(%a: tensor<4x4xf32>) -> tensor<4xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.custom_call' op (LAPACK geev) expects 1 operand and 5 results (wr, wi, vl, vr, info), found 1 and 4
  %0:4 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<4x4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>, tensor<i32>)
  return %0#0 : tensor<4xcomplex<f32>>
}

// -----

// Eigenvectors of the wrong precision.
func.func @geev_vector_type(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.eig' op result #2 must be tensor<4x4xcomplex<f32>>, found tensor<4x4xcomplex<f64>>
  %0:5 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x4xcomplex<f32>>, tensor<4x4xcomplex<f64>>, tensor<i32>)
  return %0#0 : tensor<4xf32>
}

// -----

// gehrd of part of the matrix (low..high narrower than 1..n).
func.func @gehrd_part(%a: tensor<4x4xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unsupported: gehrd of rows and columns low..high other than 1..4 (the whole matrix) is not supported
  %0:3 = stablehlo.custom_call @lapack_sgehrd_ffi(%a) {mhlo.backend_config = {high = 3 : i32, low = 1 : i32}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

// sytrd of the upper triangle.
func.func @sytrd_upper(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unsupported: sytrd / hetrd of the upper triangle (uplo 'U') is not supported
  %0:5 = stablehlo.custom_call @lapack_ssytrd_ffi(%a) {mhlo.backend_config = {uplo = 85 : ui8}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<i32>)
  return %0#1 : tensor<4xf32>
}

// -----

// tau of the wrong length.
func.func @gehrd_tau(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.hessenberg' op inferred type tensor<3xf32> does not match result type tensor<4xf32>
  %0:3 = stablehlo.custom_call @lapack_sgehrd_ffi(%a) {mhlo.backend_config = {high = 4 : i32, low = 1 : i32}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>)
  return %0#1 : tensor<4xf32>
}

// -----

// gtsv whose diagonals do not match b's systems.
func.func @gtsv_diagonal(%dl: tensor<4xf32>, %d: tensor<5xf32>, %du: tensor<5xf32>, %b: tensor<5x2xf32>) -> tensor<5x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.tridiagonal_solve' op operand #0 must be tensor<5xf32> (a diagonal of b's systems), found tensor<4xf32>
  %0:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%dl, %d, %du, %b) {mhlo.backend_config = {}} : (tensor<4xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5x2xf32>) -> (tensor<4xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<i32>)
  return %0#3 : tensor<5x2xf32>
}
