// RUN: strata opt %s --split-input-file --xla-lapack-custom-calls --xla-remove-dead-ops | FileCheck %s

// jnp.linalg.qr(a)[1]: JAX's export keeps the orgqr whose Q nothing uses;
// it goes, the factorization R is read from stays.

// CHECK-LABEL: func.func @r_only
// CHECK: %[[QR:.*]]:2 = "xla.householder_qr"(%arg0)
// CHECK-NOT: "xla.householder_product"
// CHECK: "xla.select"({{.*}}, {{.*}}, %[[QR]]#0)
func.func @r_only(%a: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>)
  %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<5x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  %i = stablehlo.iota dim = 0 : tensor<5x3xi32>
  %j = stablehlo.iota dim = 1 : tensor<5x3xi32>
  %below = stablehlo.compare GT, %i, %j, SIGNED : (tensor<5x3xi32>, tensor<5x3xi32>) -> tensor<5x3xi1>
  %z = stablehlo.constant dense<0.0> : tensor<5x3xf32>
  %r = stablehlo.select %below, %z, %0#0 : tensor<5x3xi1>, tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

// A chain whose last op is unused goes whole in one walk; an op used by
// the return stays, and so does its constant.

// CHECK-LABEL: func.func @chain
// CHECK-NOT: "xla.exponential"
// CHECK-NOT: "xla.log"
// CHECK: %[[C:.*]] = "xla.constant"
// CHECK: %[[S:.*]] = "xla.add"(%arg0, %[[C]])
// CHECK-NEXT: "func.return"(%[[S]])
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = stablehlo.exponential %x : tensor<4xf32>
  %l = stablehlo.log %e : tensor<4xf32>
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %s = stablehlo.add %x, %c : tensor<4xf32>
  %dead = stablehlo.multiply %l, %c : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A custom call runs code registered by the user: it stays though nothing
// uses it, with effects declared or not. An RNG's bits are a function of
// its state: unused, it goes.

// CHECK-LABEL: func.func @effects
// CHECK: "xla.custom_call"{{.*}}has_side_effect = true
// CHECK: "xla.custom_call"{{.*}}call_target_name = "host_norm"
// CHECK-NOT: "xla.rng_bit_generator"
func.func @effects(%x: tensor<4xf32>, %state: tensor<2xui64>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @host_log(%x) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.custom_call @host_norm(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2:2 = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %x : tensor<4xf32>
}
