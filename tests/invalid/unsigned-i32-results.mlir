// RUN: not strata opt %s --split-input-file --xla-lapack-custom-calls 2>&1 | FileCheck %s

// Regressions from the attribute-mutation probe (tests/invalid/FUZZING.md, B26): results
// that hold 32-bit signed values (LAPACK's info and pivots, a dimension size) accepted ui32,
// and the lowering's i32 stores then made invalid IR ("internal compiler error: 'mem.store'
// op expects a stored value of type ui32, found i32").

func.func @potrf_info_ui32(%a: tensor<2x2xf32>) -> tensor<ui32> {
  // CHECK-NOT: internal compiler error
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.cholesky' op the info result is i32 per matrix
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<ui32>)
  return %0#1 : tensor<ui32>
}

// -----

func.func @getrf_pivots_ui32(%a: tensor<2x2xf32>) -> tensor<2xui32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.lu' op results must be lu, i32 pivots per row of min(m, n) and i32 info per matrix
  %0:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xui32>, tensor<i32>)
  return %0#1 : tensor<2xui32>
}

// -----

func.func @gesdd_info_ui32(%a: tensor<2x2xf32>) -> tensor<ui32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.svd' op result #3 (info) must be i32 of shape [], found ui32 of []
  %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%a) {mhlo.backend_config = {mode = 65 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<ui32>)
  return %0#4 : tensor<ui32>
}

// -----

func.func @dimension_size_ui32(%a: tensor<2x3xf32>) -> tensor<ui32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.get_dimension_size' op result must be a tensor<i32>
  %0 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<ui32>
  return %0 : tensor<ui32>
}

// -----

// The signed forms still verify.
// CHECK-LABEL: func.func @valid
func.func @valid(%a: tensor<2x2xf32>) -> (tensor<i32>, tensor<2xi32>, tensor<i32>) {
  // CHECK-NOT: error
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
  %1:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%a) {operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<i32>)
  %2 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x2xf32>) -> tensor<i32>
  return %0#1, %1#1, %2 : tensor<i32>, tensor<2xi32>, tensor<i32>
}
