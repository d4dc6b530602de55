// RUN: strata opt %s --split-input-file --xla-jax-calling-convention | FileCheck %s

// A multi-platform export (`platforms=("cpu", "cuda")`): the platform index
// leaves the signature and is the constant index of cpu (the first platform
// when the module does not say).

// CHECK-LABEL: func.func @first_platform(
// CHECK-SAME: %arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: arg_attrs = [{}]
// CHECK-NEXT: %[[IDX:.*]] = "xla.constant"() {value = dense<0> : tensor<i32>}
// CHECK: "xla.case"(%[[IDX]])
func.func public @first_platform(%arg0: tensor<i32> {jax.global_constant = "_platform_index"}, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%arg0) ({
    %1 = stablehlo.negate %arg1 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }, {
    %1 = stablehlo.abs %arg1 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The platforms in the order of the export (set by `--platforms` or a
// serialized export): cpu is the second.

// CHECK: module attributes {strata.platforms = ["cuda", "cpu"]}
// CHECK-NEXT: func.func @cuda_then_cpu(%arg0: tensor<4xf32>)
// CHECK-NEXT: "xla.constant"() {value = dense<1> : tensor<i32>}
module attributes {strata.platforms = ["cuda", "cpu"]} {
  func.func public @cuda_then_cpu(%arg0: tensor<i32> {jax.global_constant = "_platform_index"}, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "stablehlo.case"(%arg0) ({
      stablehlo.return %arg1 : tensor<4xf32>
    }, {
      stablehlo.return %arg1 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// Ordered effects (calling convention 9 and 10): token arguments marked
// `jax.token` become `after_all` tokens, such token results are not
// returned; a private function keeps its tokens, and so does a public one
// whose tokens JAX did not add.

// CHECK-LABEL: func.func @ordered_effects(
// CHECK-SAME: %arg0: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: res_attrs = [{jax.result_info = "result"}]
// CHECK-NEXT: %[[T:.*]] = "xla.after_all"() : () -> !stablehlo.token
// CHECK-NEXT: "func.call"(%[[T]], %arg0)
// CHECK: "func.return"(%{{.*}}) : (tensor<4xf32>) -> ()
// CHECK: func.func private @effect(%arg0: !stablehlo.token, %arg1: tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>)
func.func public @ordered_effects(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<4xf32>) -> (!stablehlo.token {jax.token = true}, tensor<4xf32> {jax.result_info = "result"}) {
  %0:2 = call @effect(%arg0, %arg1) : (!stablehlo.token, tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>)
  return %0#0, %0#1 : !stablehlo.token, tensor<4xf32>
}
func.func private @effect(%arg0: !stablehlo.token, %arg1: tensor<4xf32>) -> (!stablehlo.token, tensor<4xf32>) {
  %0 = stablehlo.add %arg1, %arg1 : tensor<4xf32>
  return %arg0, %0 : !stablehlo.token, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @own_tokens(%arg0: tensor<4xf32>, %arg1: !stablehlo.token) -> !stablehlo.token
func.func public @own_tokens(%arg0: tensor<4xf32>, %arg1: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.outfeed"(%arg0, %arg1) : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

// A shape-polymorphic export's @main passes its arguments to the wrapped
// function, whose parameters carry the pytree paths: @main's arguments
// take them (the C parameters are named so).

// CHECK-LABEL: func.func @named_through_wrapper(
// CHECK-SAME: arg_attrs = [{strata.path = "params['w']"}, {strata.path = "x"}]
func.func public @named_through_wrapper(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @_wrapped_jax_export_main(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @_wrapped_jax_export_main(%arg0: tensor<4xf32> loc("params['w']"), %arg1: tensor<4xf32> loc("x")) -> tensor<4xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
