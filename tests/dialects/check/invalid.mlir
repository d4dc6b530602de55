// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier and parser message of the check dialect
// (dialects/check/src/lib.rs).

func.func @pair_types() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %b = stablehlo.constant dense<1.0> : tensor<2xf64>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_eq' op expects two tensors of the same type
  "check.expect_eq"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> ()
  func.return
}

// -----

func.func @pair_arity() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_close' op expects two operands and no results
  "check.expect_close"(%a) : (tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @const_arity() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_eq_const' op expects one operand and no results
  "check.expect_eq_const"(%a, %a) {value = dense<1.0> : tensor<2xf32>} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @const_no_value() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_eq_const' op requires a dense 'value' attribute
  "check.expect_eq_const"(%a) : (tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @const_value_type() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_almost_eq_const' op expected value must have the operand's type
  "check.expect_almost_eq_const"(%a) {value = dense<1.0> : tensor<3xf32>} : (tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @negative_tolerance() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_almost_eq' op tolerance must be a non-negative float
  "check.expect_almost_eq"(%a, %a) {tolerance = -1.0 : f64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @negative_ulps() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'check.expect_close' op max_ulp_difference must be non-negative
  "check.expect_close"(%a, %a) {max_ulp_difference = -2 : i64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @unknown_option() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown check option 'precision'
  check.expect_almost_eq %a, %a, precision = 3 : tensor<2xf32>
  func.return
}

// -----

func.func @bad_option_value() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: invalid value for 'max_ulp_difference'
  check.expect_close %a, %a, max_ulp_difference = 1.5 : tensor<2xf32>
  func.return
}

// -----

func.func @const_not_dense() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected a dense elements attribute
  check.expect_eq_const %a, 1.0 : f32
  func.return
}
