// RUN: not strata opt %s --split-input-file --xla-refine-shapes 2>&1 | FileCheck %s

// A broken shape assertion is JAX's message with the values filled in.

// CHECK: xla-refine-shapes-invalid.mlir:[[@LINE+6]]:5: error: Expected value >= 1 for dimension variable 'b', found 0
module @zero attributes {strata.dimension_values = {b = 0 : i64}} {
  func.func public @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'b', found {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @inner(%0, %arg0) : (tensor<i32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return %2 : tensor<?x4xf32>
  }
  func.func private @inner(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %arg1 : tensor<?x4xf32>
  }
}

// -----

// No value for a dimension variable: a located error naming it.

// CHECK: xla-refine-shapes-invalid.mlir:[[@LINE+2]]:3: error: @main is shape-polymorphic (dimension variables n): give each a value with --dim n=N
module @missing {
  func.func public @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>
    %1 = call @inner(%0, %arg0) : (tensor<i32>, tensor<?xf32>) -> tensor<?xf32>
    return %1 : tensor<?xf32>
  }
  func.func private @inner(%arg0: tensor<i32> {jax.global_constant = "n"}, %arg1: tensor<?xf32>) -> tensor<?xf32> {
    return %arg1 : tensor<?xf32>
  }
}

// -----

// The argument dimension holding a variable is read from the program's
// structure (here `2*b`: b is its size through `divmod` by 2); what the
// program computes is checked: a `divmod` that divides otherwise passes
// another b, an error rather than buffers of the wrong size.

// CHECK: xla-refine-shapes-invalid.mlir:[[@LINE+6]]:10: error: 'func.call' op passes dimension variable b = 1 computed from the arguments' shapes, where they were given for b = 3
module @not_divmod attributes {jax.uses_shape_polymorphism = true, strata.dimension_values = {b = 3 : i64}} {
  func.func public @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1:2 = call @divmod(%0, %c2) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %2 = call @_wrapped_jax_export_main(%1#0, %arg0) : (tensor<i32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    return %2 : tensor<?x4xf32>
  }
  func.func private @divmod(%arg0: tensor<i32>, %arg1: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<i32>
    %1 = stablehlo.divide %0, %arg1 : tensor<i32>
    return %1, %0 : tensor<i32>, tensor<i32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %arg1 : tensor<?x4xf32>
  }
}
