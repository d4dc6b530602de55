// RUN: strata opt %s --xla-expand-rng | FileCheck %s

// rng takes the process's Philox state, advanced past the blocks it draws
// (6 f32 words: 2 blocks of 4), and maps the words to [a, b).
// CHECK-LABEL: func.func @uniform
// CHECK-NOT: xla.rng"
// CHECK: %[[S:.*]] = "xla.rng_get_and_update_state"() {delta = 2 : i64} : () -> tensor<2xui64>
// CHECK: "xla.rng_bit_generator"(%[[S]]) {rng_algorithm = "PHILOX"} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<6xui32>)
// CHECK: "xla.shift_right_logical"
// CHECK: "xla.bitcast_convert"{{.*}} -> tensor<6xf32>
// CHECK: "xla.compare"
// CHECK: "xla.select"
// CHECK: "xla.reshape"{{.*}} -> tensor<2x3xf32>
func.func @uniform(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// NORMAL draws two words per number (Box-Muller), 64-bit ones for f64.
// CHECK-LABEL: func.func @normal
// CHECK: "xla.rng_get_and_update_state"() {delta = 4 : i64}
// CHECK: -> (tensor<2xui64>, tensor<8xui64>)
// CHECK: "xla.log"
// CHECK: "xla.sqrt"
// CHECK: "xla.cosine"
func.func @normal(%a: tensor<f64>, %b: tensor<f64>) -> tensor<4xf64> {
  %s = stablehlo.constant dense<[4]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// Integers: a + bits mod (b - a), in 32-bit unsigned arithmetic.
// CHECK-LABEL: func.func @integers
// CHECK: "xla.remainder"{{.*}} : (tensor<5xui32>, tensor<5xui32>) -> tensor<5xui32>
func.func @integers(%a: tensor<i8>, %b: tensor<i8>) -> tensor<5xi8> {
  %s = stablehlo.constant dense<[5]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<i8>, tensor<i8>, tensor<1xi64>) -> tensor<5xi8>
  return %r : tensor<5xi8>
}
