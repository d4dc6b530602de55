// RUN: strata opt %s --xla-lapack-custom-calls | FileCheck %s

// JAX's LAPACK trsm custom call becomes xla.triangular_solve with the
// backend config's side ('R' = 82), uplo ('U' = 85), trans_x ('T' = 84)
// and diag ('U' = 85); the layouts and sharding rule are dropped.

// CHECK-LABEL: func.func @trsm
// CHECK-NOT: custom_call
// CHECK: %[[R:.*]] = "xla.triangular_solve"(%arg0, %arg1) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>, lapack = true} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: "func.return"(%[[R]])
func.func @trsm(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=4, k=4, l=3, m=4, n=3, o=4}, custom>} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// jnp.linalg.qr: geqrf then orgqr, batched (num_batch_dims = 1), become
// xla.householder_qr and xla.householder_product on the same values (the
// column-major layouts describe memory, not values).

// CHECK-LABEL: func.func @qr
// CHECK-NOT: custom_call
// CHECK: %[[QR:.*]]:2 = "xla.householder_qr"(%arg0) : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>)
// CHECK: %[[Q:.*]] = "xla.householder_product"(%[[QR]]#0, %[[QR]]#1) : (tensor<2x5x3xf32>, tensor<2x3xf32>) -> tensor<2x5x3xf32>
// CHECK: "func.return"(%[[Q]])
func.func @qr(%a: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>)
  %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<2x5x3xf32>, tensor<2x3xf32>) -> tensor<2x5x3xf32>
  return %1 : tensor<2x5x3xf32>
}

// Complex QR: zgeqrf and zungqr.

// CHECK-LABEL: func.func @qr_complex
// CHECK: %[[QR:.*]]:2 = "xla.householder_qr"(%arg0)
// CHECK: "xla.householder_product"(%[[QR]]#0, %[[QR]]#1) : (tensor<4x3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> tensor<4x3xcomplex<f64>>
func.func @qr_complex(%a: tensor<4x3xcomplex<f64>>) -> tensor<4x3xcomplex<f64>> {
  %0:2 = stablehlo.custom_call @lapack_zgeqrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<4x3xcomplex<f64>>) -> (tensor<4x3xcomplex<f64>>, tensor<3xcomplex<f64>>)
  %1 = stablehlo.custom_call @lapack_zungqr_ffi(%0#0, %0#1) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<4x3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> tensor<4x3xcomplex<f64>>
  return %1 : tensor<4x3xcomplex<f64>>
}

// heevd with mode 'V' (86: vectors too) and uplo 'U' (85) becomes xla.eigh
// reading the upper triangle.

// CHECK-LABEL: func.func @eigh
// CHECK: %[[E:.*]]:3 = "xla.eigh"(%arg0) {lower = false, compute_vectors = true} : (tensor<4x4xcomplex<f64>>) -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<i32>)
// CHECK: "func.return"(%[[E]]#0, %[[E]]#1, %[[E]]#2)
func.func @eigh(%a: tensor<4x4xcomplex<f64>>) -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<i32>) {
  %0:3 = stablehlo.custom_call @lapack_zheevd_ffi(%a) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xcomplex<f64>>) -> (tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<4x4xcomplex<f64>>, tensor<4xf64>, tensor<i32>
}

// syevd with mode 'N' (78: values only), uplo 'L' (76).

// CHECK-LABEL: func.func @eigvalsh
// CHECK: "xla.eigh"(%arg0) {lower = true, compute_vectors = false} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>)
func.func @eigvalsh(%a: tensor<2x3x3xf32>) -> tensor<2x3xf32> {
  %0:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%a) {mhlo.backend_config = {mode = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2xi32>)
  return %0#1 : tensor<2x3xf32>
}

// gesdd with mode 'S' (83: reduced u and vt) becomes xla.svd without its
// first result: LAPACK's clobbered copy of a is a itself.

// CHECK-LABEL: func.func @svd
// CHECK: %[[S:.*]]:4 = "xla.svd"(%arg0) {full_matrices = false, compute_uv = true} : (tensor<3x5xf64>) -> (tensor<3xf64>, tensor<3x3xf64>, tensor<3x5xf64>, tensor<i32>)
// CHECK: "func.return"(%arg0, %[[S]]#0, %[[S]]#1, %[[S]]#2, %[[S]]#3)
func.func @svd(%a: tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3xf64>, tensor<3x3xf64>, tensor<3x5xf64>, tensor<i32>) {
  %0:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%a) {backend_config = "", mhlo.backend_config = {mode = 83 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3xf64>, tensor<3x3xf64>, tensor<3x5xf64>, tensor<i32>)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<3x5xf64>, tensor<3xf64>, tensor<3x3xf64>, tensor<3x5xf64>, tensor<i32>
}

// Mode 'A' (65): full u and vt; 'N' (78): values only, u and vt keep the
// full shapes JAX gives them.

// CHECK-LABEL: func.func @svd_full_and_values
// CHECK: "xla.svd"(%arg0) {full_matrices = true, compute_uv = true} : (tensor<4x3xcomplex<f32>>) -> (tensor<3xf32>, tensor<4x4xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
// CHECK: "xla.svd"(%arg0) {full_matrices = true, compute_uv = false} : (tensor<4x3xcomplex<f32>>) -> (tensor<3xf32>, tensor<4x4xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
func.func @svd_full_and_values(%a: tensor<4x3xcomplex<f32>>) -> (tensor<4x4xcomplex<f32>>, tensor<3xf32>) {
  %0:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<4x3xcomplex<f32>>) -> (tensor<4x3xcomplex<f32>>, tensor<3xf32>, tensor<4x4xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
  %1:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%a) {mhlo.backend_config = {mode = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<4x3xcomplex<f32>>) -> (tensor<4x3xcomplex<f32>>, tensor<3xf32>, tensor<4x4xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#2, %1#1 : tensor<4x4xcomplex<f32>>, tensor<3xf32>
}

// potrf: uplo 'L' (76) and 'U' (85) become xla.cholesky with lower true
// and false (the info result kept); complex (cpotrf) too.

// CHECK-LABEL: func.func @potrf
// CHECK-NOT: custom_call
// CHECK: %[[L:.*]]:2 = "xla.cholesky"(%arg0) {lower = true} : (tensor<3x4x4xf64>) -> (tensor<3x4x4xf64>, tensor<3xi32>)
// CHECK: %[[U:.*]]:2 = "xla.cholesky"(%arg1) {lower = false} : (tensor<4x4xcomplex<f32>>) -> (tensor<4x4xcomplex<f32>>, tensor<i32>)
// CHECK: "func.return"(%[[L]]#0, %[[L]]#1, %[[U]]#0)
func.func @potrf(%a: tensor<3x4x4xf64>, %c: tensor<4x4xcomplex<f32>>) -> (tensor<3x4x4xf64>, tensor<3xi32>, tensor<4x4xcomplex<f32>>) {
  %0:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<3x4x4xf64>) -> (tensor<3x4x4xf64>, tensor<3xi32>)
  %1:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%c) {mhlo.backend_config = {uplo = 85 : ui8}} : (tensor<4x4xcomplex<f32>>) -> (tensor<4x4xcomplex<f32>>, tensor<i32>)
  return %0#0, %0#1, %1#0 : tensor<3x4x4xf64>, tensor<3xi32>, tensor<4x4xcomplex<f32>>
}

// geev (jnp.linalg.eig): the real routine's eigenvalue parts come from
// xla.eig's complex values through xla.real and xla.imag; the complex
// routine's results map one to one. 'N' (78) and 'V' (86) pick the vectors.

// CHECK-LABEL: func.func @geev
// CHECK-NOT: custom_call
// CHECK: %[[E:.*]]:4 = "xla.eig"(%arg0) {compute_left_eigenvectors = false, compute_right_eigenvectors = true} : (tensor<2x4x4xf32>) -> (tensor<2x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>, tensor<2xi32>)
// CHECK: %[[RE:.*]] = "xla.real"(%[[E]]#0) : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xf32>
// CHECK: %[[IM:.*]] = "xla.imag"(%[[E]]#0) : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xf32>
// CHECK: %[[C:.*]]:4 = "xla.eig"(%arg1) {compute_left_eigenvectors = true, compute_right_eigenvectors = false} : (tensor<3x3xcomplex<f64>>)
// CHECK: "func.return"(%[[RE]], %[[IM]], %[[E]]#2, %[[E]]#3, %[[C]]#0, %[[C]]#1)
func.func @geev(%a: tensor<2x4x4xf32>, %c: tensor<3x3xcomplex<f64>>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4x4xcomplex<f32>>, tensor<2xi32>, tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>) {
  %0:5 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {backend_config = "", mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x4x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>, tensor<2xi32>)
  %1:4 = stablehlo.custom_call @lapack_zgeev_ffi(%c) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 78 : ui8}} : (tensor<3x3xcomplex<f64>>) -> (tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<i32>)
  return %0#0, %0#1, %0#3, %0#4, %1#0, %1#1 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4x4xcomplex<f32>>, tensor<2xi32>, tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>
}

// gehrd of the whole matrix (low = 1, high = n) becomes xla.hessenberg and
// sytrd with uplo 'L' xla.tridiagonal {lower = true}; their info results
// become constant zeros.

// CHECK-LABEL: func.func @reductions
// CHECK-NOT: custom_call
// CHECK: %[[H:.*]]:2 = "xla.hessenberg"(%arg0) : (tensor<2x4x4xf64>) -> (tensor<2x4x4xf64>, tensor<2x3xf64>)
// CHECK: %[[HI:.*]] = "xla.constant"() {value = dense<0> : tensor<2xi32>}
// CHECK: %[[T:.*]]:4 = "xla.tridiagonal"(%arg1) {lower = true} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>)
// CHECK: %[[TI:.*]] = "xla.constant"() {value = dense<0> : tensor<i32>}
// CHECK: "func.return"(%[[H]]#0, %[[H]]#1, %[[HI]], %[[T]]#1, %[[T]]#3, %[[TI]])
func.func @reductions(%a: tensor<2x4x4xf64>, %h: tensor<3x3xcomplex<f32>>) -> (tensor<2x4x4xf64>, tensor<2x3xf64>, tensor<2xi32>, tensor<3xf32>, tensor<2xcomplex<f32>>, tensor<i32>) {
  %0:3 = stablehlo.custom_call @lapack_dgehrd_ffi(%a) {mhlo.backend_config = {high = 4 : i32, low = 1 : i32}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x4x4xf64>) -> (tensor<2x4x4xf64>, tensor<2x3xf64>, tensor<2xi32>)
  %1:5 = stablehlo.custom_call @lapack_chetrd_ffi(%h) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<i32>)
  return %0#0, %0#1, %0#2, %1#1, %1#3, %1#4 : tensor<2x4x4xf64>, tensor<2x3xf64>, tensor<2xi32>, tensor<3xf32>, tensor<2xcomplex<f32>>, tensor<i32>
}

// gtsv (lax.linalg.tridiagonal_solve) becomes xla.tridiagonal_solve with
// the same operands and results; num_batch_dims counts b's batch.

// CHECK-LABEL: func.func @gtsv
// CHECK-NOT: custom_call
// CHECK: %[[S:.*]]:5 = "xla.tridiagonal_solve"(%arg0, %arg1, %arg2, %arg3) : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x3xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x3xf32>, tensor<2xi32>)
// CHECK: "func.return"(%[[S]]#3, %[[S]]#4)
func.func @gtsv(%dl: tensor<2x5xf32>, %d: tensor<2x5xf32>, %du: tensor<2x5xf32>, %b: tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2xi32>) {
  %0:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%dl, %d, %du, %b) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x3xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x3xf32>, tensor<2xi32>)
  return %0#3, %0#4 : tensor<2x5x3xf32>, tensor<2xi32>
}
