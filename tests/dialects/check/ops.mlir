// RUN: strata opt %s --split-input-file | FileCheck %s
// RUN: strata opt %s --split-input-file | strata opt /dev/stdin --split-input-file | FileCheck %s

// Round trip of the check dialect: the pretty forms of the conformance suite
// and the same checks spelled as stablehlo.custom_call.

// CHECK-LABEL: func.func @pretty_forms
func.func @pretty_forms() {
  // CHECK: %[[A:.*]] = "xla.constant"
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  // CHECK: %[[B:.*]] = "xla.constant"
  %b = stablehlo.constant dense<[1.0, 2.05]> : tensor<2xf64>
  // CHECK: "check.expect_eq"(%[[A]], %[[A]]) : (tensor<2xf64>, tensor<2xf64>) -> ()
  check.expect_eq %a, %a : tensor<2xf64>
  // CHECK: "check.expect_eq_const"(%[[A]]) {value = dense<[1.0, 2.0]> : tensor<2xf64>} : (tensor<2xf64>) -> ()
  check.expect_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf64>
  // CHECK: "check.expect_almost_eq"(%[[A]], %[[B]]) {tolerance = 0.1 : f64} : (tensor<2xf64>, tensor<2xf64>) -> ()
  check.expect_almost_eq %a, %b, tolerance = 0.1 : tensor<2xf64>
  // CHECK: "check.expect_almost_eq_const"(%[[B]]) {value = dense<[1.0, 2.0]> : tensor<2xf64>, tolerance = 0.1 : f64} : (tensor<2xf64>) -> ()
  check.expect_almost_eq_const %b, dense<[1.0, 2.0]> : tensor<2xf64> {tolerance = 0.1 : f64}
  // CHECK: "check.expect_almost_eq_const"(%[[A]]) {value = dense<[1.0, 2.0]> : tensor<2xf64>} : (tensor<2xf64>) -> ()
  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf64>
  // CHECK: "check.expect_close"(%[[A]], %[[B]]) {min_ulp_difference = 0 : i64, max_ulp_difference = 3 : i64} : (tensor<2xf64>, tensor<2xf64>) -> ()
  check.expect_close %a, %b, min_ulp_difference = 0, max_ulp_difference = 3 : tensor<2xf64>, tensor<2xf64>
  func.return
}

// -----

// CHECK-LABEL: func.func @custom_call_forms
func.func @custom_call_forms() {
  // CHECK: %[[A:.*]] = "xla.constant"
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // ULP distance at most 3.
  // CHECK: "check.expect_close"(%[[A]], %[[A]]) {max_ulp_difference = 3 : i64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // CHECK: "check.expect_eq"(%[[A]], %[[A]]) : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_eq(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // CHECK: "check.expect_almost_eq"(%[[A]], %[[A]]) {tolerance = 0.001 : f64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // Other targets stay custom calls.
  // CHECK: "xla.custom_call"(%[[A]]) {{{.*}}call_target_name = "my_target"{{.*}}} : (tensor<2xf32>) -> tensor<2xf32>
  %r = stablehlo.custom_call @my_target(%a) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
