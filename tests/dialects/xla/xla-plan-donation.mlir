// RUN: strata opt %s --xla-plan-donation | FileCheck %s

// A donated argument (tf.aliasing_output = 0) whose only reader is the
// dynamic_update_slice returned as result 0 may share its buffer.
// CHECK-LABEL: func.func @kv_update
// CHECK-SAME: strata.aliases = array<i64: 0, 0>
func.func public @kv_update(%cache: tensor<8x4xf32> {tf.aliasing_output = 0 : i32}, %row: tensor<1x4xf32>, %i: tensor<i32>) -> tensor<8x4xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %u = stablehlo.dynamic_update_slice %cache, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return %u : tensor<8x4xf32>
}

// jax.buffer_donor pairs with the result of its type that updates it.
// CHECK-LABEL: func.func @donor
// CHECK-SAME: strata.aliases = array<i64: 1, 1>
func.func public @donor(%x: tensor<2xf32>, %cache: tensor<8x4xf32> {jax.buffer_donor = true}, %row: tensor<1x4xf32>, %i: tensor<i32>) -> (tensor<2xf32>, tensor<8x4xf32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %u = stablehlo.dynamic_update_slice %cache, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return %x, %u : tensor<2xf32>, tensor<8x4xf32>
}

// The old contents are read too: an in-place update would change what that
// read sees, so no pair is declared. Nor for a result that is not an update.
// CHECK-LABEL: func.func @read_twice
// CHECK-NOT: strata.aliases
// CHECK-LABEL: func.func @not_an_update
// CHECK-NOT: strata.aliases
func.func public @read_twice(%cache: tensor<8x4xf32> {tf.aliasing_output = 0 : i32}, %row: tensor<1x4xf32>, %i: tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %u = stablehlo.dynamic_update_slice %cache, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  %n = stablehlo.negate %cache : tensor<8x4xf32>
  return %u, %n : tensor<8x4xf32>, tensor<8x4xf32>
}
func.func public @not_an_update(%cache: tensor<8x4xf32> {tf.aliasing_output = 0 : i32}) -> tensor<8x4xf32> {
  %n = stablehlo.negate %cache : tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}
