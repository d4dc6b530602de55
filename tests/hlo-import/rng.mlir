// RUN: sed -n 's|^//HLO: ||p' %s > %t.hlo
// RUN: strata opt %t.hlo | FileCheck %s
// RUN: strata check %s | FileCheck %s --check-prefix=RUNS
// XLA HLO's `rng` (uniform, normal) and `rng-get-and-update-state` import as
// xla.rng (the declared shape becomes its shape operand) and the state op.

//HLO: HloModule rng_test
//HLO: ENTRY main {
//HLO:   a = f32[] constant(2)
//HLO:   b = f32[] constant(4)
//HLO:   r = f32[3,2]{1,0} rng(a, b), distribution=rng_uniform
//HLO:   n = f32[4]{0} rng(a, b), distribution=rng_normal
//HLO:   st = u64[2]{0} rng-get-and-update-state(), delta=8
//HLO:   ROOT t = (f32[3,2]{1,0}, f32[4]{0}, u64[2]{0}) tuple(r, n, st)
//HLO: }

// CHECK: %[[SHAPE:.*]] = "xla.constant"() {value = dense<[3, 2]> : tensor<2xi64>}
// CHECK: "xla.rng"(%{{.*}}, %{{.*}}, %[[SHAPE]]) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x2xf32>
// CHECK: {rng_distribution = #stablehlo<rng_distribution NORMAL>}
// CHECK: "xla.rng_get_and_update_state"() {delta = 8 : i64} : () -> tensor<2xui64>

// The same ops from StableHLO, run: uniform numbers inside [2, 4).
// RUNS: {{^}}1 passed, 0 failed{{$}}
func.func @uniform_in_range() {
  %a = stablehlo.constant dense<2.0> : tensor<f32>
  %b = stablehlo.constant dense<4.0> : tensor<f32>
  %s = stablehlo.constant dense<[1000]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<1000xf32>
  %ab = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  %ge = stablehlo.compare GE, %r, %ab : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xi1>
  %lt = stablehlo.compare LT, %r, %bb : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xi1>
  %in = stablehlo.and %ge, %lt : tensor<1000xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %all = stablehlo.reduce(%in init: %t) applies stablehlo.and across dimensions = [0] : (tensor<1000xi1>, tensor<i1>) -> tensor<i1>
  check.expect_eq_const %all, dense<true> : tensor<i1>
  return
}
