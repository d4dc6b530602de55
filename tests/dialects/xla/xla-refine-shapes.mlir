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

// -----

// `?` dimensions without names: one variable per `?` dimension of each
// argument (arg0_dim0, arg1_dim0), here given values. Ops whose results
// are not their operands' shape refine from their attributes: a
// convolution (SAME, 8 output features), a max pool (window 2, stride 2),
// an rfft (16 -> 9), a top_k (k = 3); an optimization barrier's results
// keep each its own operand's shape.

// CHECK-LABEL: func.func @main(%arg0: tensor<2x6x6x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<3x3x3x8xf32>)
// CHECK: "xla.convolution"({{.*}} : (tensor<2x6x6x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x6x6x8xf32>
// CHECK: "xla.reduce_window"
// CHECK: {window_dimensions = {{.*}} : (tensor<2x6x6x8xf32>, tensor<f32>) -> tensor<2x3x3x8xf32>
// CHECK: "xla.fft"({{.*}} : (tensor<5x16xf32>) -> tensor<5x9xcomplex<f32>>
// CHECK: "xla.top_k"({{.*}} : (tensor<5x9xf32>) -> (tensor<5x3xf32>, tensor<5x3xi32>)
// CHECK: "xla.optimization_barrier"({{.*}}) : (tensor<2x3x3x8xf32>, tensor<5x3xf32>) -> (tensor<2x3x3x8xf32>, tensor<5x3xf32>)
module attributes {strata.dimension_values = {arg0_dim0 = 2 : i64, arg1_dim0 = 5 : i64}} {
  func.func @main(%x: tensor<?x6x6x3xf32>, %s: tensor<?x16xf32>, %k: tensor<3x3x3x8xf32>) -> (tensor<?x3x3x8xf32>, tensor<?x3xf32>) {
    %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x6x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %p = "stablehlo.reduce_window"(%c, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<?x6x6x8xf32>, tensor<f32>) -> tensor<?x?x?x8xf32>
    %f = stablehlo.fft %s, type = RFFT, length = [16] : (tensor<?x16xf32>) -> tensor<?x?xcomplex<f32>>
    %mag = stablehlo.abs %f : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
    %v, %i = chlo.top_k(%mag, k = 3) : tensor<?x?xf32> -> (tensor<?x3xf32>, tensor<?x3xi32>)
    %r:2 = stablehlo.optimization_barrier %p, %v : tensor<?x?x?x8xf32>, tensor<?x3xf32>
    %out = stablehlo.convert %r#0 : (tensor<?x?x?x8xf32>) -> tensor<?x3x3x8xf32>
    return %out, %r#1 : tensor<?x3x3x8xf32>, tensor<?x3xf32>
  }
}

// -----

// A size read out of a shape vector with a gather (as JAX's take_along_axis
// does) is evaluated: the gathered element becomes a constant.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x8xf32>) -> tensor<1xi32>
// CHECK: value = dense<{{\[\[}}1]]> : tensor<1x1xi32>
// CHECK-NEXT: %[[SIZE:.*]] = "xla.constant"() {value = dense<[8]> : tensor<1xi32>} : () -> tensor<1xi32>
// CHECK-NEXT: "xla.gather"
// CHECK-NEXT: "func.return"(%[[SIZE]])
module attributes {strata.dimension_values = {arg0_dim0 = 3 : i64}} {
  func.func @main(%x: tensor<?x8xf32>) -> tensor<1xi32> {
    %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %c8 = stablehlo.constant dense<8> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %i = stablehlo.constant dense<1> : tensor<1x1xi32>
    %size = "stablehlo.gather"(%shape, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<2xi32>, tensor<1x1xi32>) -> tensor<1xi32>
    return %size : tensor<1xi32>
  }
}

// -----

// A custom call whose result shapes are operands (`indices_of_shape_operands`,
// as JAX exports LAPACK calls with symbolic shapes): the results take those
// values, and the shape operands, their layouts and the attribute go.

// CHECK-LABEL: func.func @main(%arg0: tensor<2x4x4xf32>)
// CHECK: "xla.custom_call"(%arg0) {
// CHECK-NOT: indices_of_shape_operands
// CHECK-SAME: operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]
// CHECK-SAME: : (tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2xi32>)
module attributes {strata.dimension_values = {arg0_dim0 = 2 : i64}} {
  func.func @main(%a: tensor<?x4x4xf32>) -> tensor<?x4x4xf32> {
    %b = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?x4x4xf32>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %c4 = stablehlo.constant dense<4> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %c4, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %l:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a, %shape, %b1) {indices_of_shape_operands = dense<[1, 2]> : tensor<2xi64>, mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<?x4x4xf32>, tensor<3xi32>, tensor<1xi32>) -> (tensor<?x4x4xf32>, tensor<?xi32>)
    return %l#0 : tensor<?x4x4xf32>
  }
}

// -----

// Two arguments of one dimension variable: JAX passes `b` read from the
// first and asserts the second's dimension equal to it; both are `b`.

// CHECK-LABEL: func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NOT: shape_assertion
// CHECK: func.func private @_wrapped_jax_export_main(%arg0: tensor<i32>, %arg1: tensor<3x4xf32>, %arg2: tensor<3x2xf32>) -> tensor<3x2xf32>
module @two attributes {jax.uses_shape_polymorphism = true, strata.dimension_values = {b = 3 : i64}} {
  func.func public @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?x2xf32>) -> tensor<?x2xf32> {
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
    %2 = stablehlo.compare EQ, %1, %0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %1, %0) {api_version = 2 : i32, error_message = "Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification 'b' (= {1})", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %3 = call @_wrapped_jax_export_main(%0, %arg0, %arg1) : (tensor<i32>, tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
    return %3 : tensor<?x2xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xf32>, %arg2: tensor<?x2xf32>) -> tensor<?x2xf32> {
    %0 = stablehlo.negate %arg2 : tensor<?x2xf32>
    return %0 : tensor<?x2xf32>
  }
}

// -----

// Dimensions that are formulas of a variable: JAX declares the first
// argument `2*b + 1` and reads b from it as (size - 1) divided by 2 (its
// `divmod`, the remainder asserted 0); the second is asserted equal to
// `3*b`. With b = 3 they are 7 and 9, and the program's own computation of
// b (evaluated through its helper functions) passes 3.

// CHECK-LABEL: func.func @main(%arg0: tensor<7x4xf32>, %arg1: tensor<9xf32>) -> tensor<9xf32>
// CHECK: "xla.add"
// CHECK-NEXT: %[[B:[0-9]+]] = "xla.constant"() {value = dense<3> : tensor<i32>}
// CHECK-NEXT: "func.call"({{.*}}) {callee = @divmod}
// CHECK: "func.call"(%[[B]], %arg0, %arg1) {callee = @_wrapped_jax_export_main}
// CHECK: func.func private @_wrapped_jax_export_main(%arg0: tensor<i32>, %arg1: tensor<7x4xf32>, %arg2: tensor<9xf32>) -> tensor<9xf32>
module @formulas attributes {jax.uses_shape_polymorphism = true, strata.dimension_values = {b = 3 : i64}} {
  func.func public @main(%arg0: tensor<?x4xf32>, %arg1: tensor<?xf32>) -> tensor<?xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %m1 = stablehlo.constant dense<-1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %1 = stablehlo.add %0, %m1 : tensor<i32>
    %2:2 = call @divmod(%1, %c2) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %3 = stablehlo.compare EQ, %2#1, %c0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %2#1) {api_version = 2 : i32, error_message = "Division had remainder {0} when computing the value of 'b'", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %4 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?xf32>) -> tensor<i32>
    %5 = stablehlo.multiply %2#0, %c3 : tensor<i32>
    %6 = stablehlo.compare EQ, %4, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%6, %4, %5) {api_version = 2 : i32, error_message = "Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification '3*b' (= {1})", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %7 = call @_wrapped_jax_export_main(%2#0, %arg0, %arg1) : (tensor<i32>, tensor<?x4xf32>, tensor<?xf32>) -> tensor<?xf32>
    return %7 : tensor<?xf32>
  }
  func.func private @divmod(%arg0: tensor<i32> {jax.global_constant = ""}, %arg1: tensor<i32> {jax.global_constant = ""}) -> (tensor<i32>, tensor<i32>) {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<i32>
    %1 = stablehlo.remainder %arg0, %arg1 : tensor<i32>
    return %0, %1 : tensor<i32>, tensor<i32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xf32>, %arg2: tensor<?xf32>) -> tensor<?xf32> {
    %0 = stablehlo.negate %arg2 : tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}
