// RUN: strata opt %s --split-input-file --xla-refine-shapes | FileCheck %s

// A shape-polymorphic export (`symbolic_shape("b, 4")`) specialised for
// b = 3 (`--dim b=3`; a shape-polymorphic module is specialised as it is
// read): `@main`'s `?` is bound to `b` through the get_dimension_size its
// wrapped function receives; shape computations become constants, the
// dynamic broadcast's shape a constant (which xla-static-dynamic-ops makes
// static), and the satisfied shape assertion goes.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NOT: shape_assertion
// CHECK: "func.call"({{.*}}) {callee = @_wrapped_jax_export_main} : (tensor<i32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: func.func private @_wrapped_jax_export_main(%arg0: tensor<i32>, %arg1: tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: %[[SHAPE:.*]] = "xla.constant"() {value = dense<[3, 4]> : tensor<2xi32>}
// CHECK: "xla.dynamic_broadcast_in_dim"(%{{.*}}, %[[SHAPE]]) {{.*}} : (tensor<4xf32>, tensor<2xi32>) -> tensor<3x4xf32>
// CHECK: "xla.add"({{.*}}) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
module @poly attributes {jax.uses_shape_polymorphism = true, strata.dimension_values = {b = 3 : i64}} {
  func.func public @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'b', found {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return %2 : tensor<?x4xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %cst = stablehlo.constant dense<1.0> : tensor<4xf32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [1] : (tensor<4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<?x4xf32>
    return %3 : tensor<?x4xf32>
  }
}
