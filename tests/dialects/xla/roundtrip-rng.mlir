// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the random-number ops: rng, rng_bit_generator and rng_get_and_update_state.

// CHECK-LABEL: func.func @rng
// CHECK-SAME: (%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %[[S:.*]]: tensor<2xi64>)
func.func @rng(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: %[[N:.*]] = "xla.rng"(%[[A]], %[[B]], %[[S]]) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  %0 = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK: %[[U:.*]] = "xla.rng"(%[[A]], %[[B]], %[[S]]) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  %1 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[N]], %[[U]])
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// The pretty form keeps the algorithm as a string, the generic form as an
// enum; both print back as they came.
// CHECK-LABEL: func.func @rng_bit_generator
// CHECK-SAME: (%[[S:.*]]: tensor<2xui64>, %[[P:.*]]: tensor<3xui64>)
func.func @rng_bit_generator(%s: tensor<2xui64>, %p: tensor<3xui64>) -> (tensor<2xui64>, tensor<4xui32>, tensor<2x2xui64>) {
  // CHECK: %[[T:.*]]:2 = "xla.rng_bit_generator"(%[[S]]) {rng_algorithm = "THREE_FRY"} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  // CHECK: %[[Q:.*]]:2 = "xla.rng_bit_generator"(%[[P]]) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  %0:2 = "stablehlo.rng_bit_generator"(%p) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2x2xui64>)
  // CHECK: "func.return"(%[[T]]#0, %[[T]]#1, %[[Q]]#1)
  return %ns, %bits, %0#1 : tensor<2xui64>, tensor<4xui32>, tensor<2x2xui64>
}

// XLA's state op has no StableHLO spelling: generic syntax.
// CHECK-LABEL: func.func @rng_get_and_update_state
func.func @rng_get_and_update_state() -> tensor<2xui64> {
  // CHECK: %[[S:.*]] = "xla.rng_get_and_update_state"() {delta = 8 : i64} : () -> tensor<2xui64>
  %0 = "xla.rng_get_and_update_state"() {delta = 8 : i64} : () -> tensor<2xui64>
  // CHECK: "func.return"(%[[S]])
  return %0 : tensor<2xui64>
}
