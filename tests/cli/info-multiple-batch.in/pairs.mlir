module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x8xf32>, %arg1: tensor<?x5xf32>, %arg2: tensor<8x5xf32>) -> (tensor<?x5xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x5xf32>) -> tensor<i32>
    %2:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %3 = stablehlo.compare EQ, %2#1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    stablehlo.custom_call @shape_assertion(%3, %4#1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Division had remainder {0} when computing the value of 'b'. Using the following polymorphic shapes specifications: args[0].shape = (2*b, 8),args[1].shape = (b, 5). Obtained dimension variables: . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %5:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %6 = stablehlo.compare GE, %5#0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    stablehlo.custom_call @shape_assertion(%6, %7#0, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (2*b, 8),args[1].shape = (b, 5). Obtained dimension variables: 'b' = {0} from specification '2*b' for dimension args[0].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %8:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %9 = stablehlo.compare EQ, %1, %8#0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    stablehlo.custom_call @shape_assertion(%9, %1, %10#0, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification 'b' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (2*b, 8),args[1].shape = (b, 5). Obtained dimension variables: 'b' = {1} from specification '2*b' for dimension args[0].shape[0] (= {2}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    %11:2 = call @divmod(%0, %c_1) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %12 = call @_wrapped_jax_export_main(%11#0, %arg0, %arg1, %arg2) : (tensor<i32>, tensor<?x8xf32>, tensor<?x5xf32>, tensor<8x5xf32>) -> tensor<?x5xf32>
    return %12 : tensor<?x5xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>, %arg2: tensor<?x5xf32>, %arg3: tensor<8x5xf32>) -> (tensor<?x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<5> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %0 = stablehlo.dot_general %arg1, %arg3, contracting_dims = [1] x [0] : (tensor<?x8xf32>, tensor<8x5xf32>) -> tensor<?x5xf32>
    %1 = stablehlo.tanh %0 : tensor<?x5xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_reshape %1, %3 : (tensor<?x5xf32>, tensor<3xi32>) -> tensor<?x2x5xf32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<?x2x5xf32>, tensor<f32>) -> tensor<?x5xf32>
    %6 = stablehlo.multiply %5, %arg2 : tensor<?x5xf32>
    return %6 : tensor<?x5xf32>
  }
  func.func private @divmod(%arg0: tensor<i32> {jax.global_constant = ""}, %arg1: tensor<i32> {jax.global_constant = ""}) -> (tensor<i32>, tensor<i32>) {
    %0 = stablehlo.convert %arg0 : tensor<i32>
    %1 = call @floor_divide(%0, %arg1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = call @remainder(%0, %arg1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    return %1, %2 : tensor<i32>, tensor<i32>
  }
  func.func private @floor_divide(%arg0: tensor<i32> {jax.global_constant = ""}, %arg1: tensor<i32> {jax.global_constant = ""}) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.divide %arg0, %arg1 : tensor<i32>
    %1 = stablehlo.sign %arg0 : tensor<i32>
    %2 = stablehlo.sign %arg1 : tensor<i32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<i32>
    %5 = stablehlo.compare NE, %4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %3, %5 : tensor<i1>
    %7 = stablehlo.subtract %0, %c : tensor<i32>
    %8 = call @_where(%6, %7, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %8 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1> {jax.global_constant = ""}, %arg1: tensor<i32> {jax.global_constant = ""}, %arg2: tensor<i32> {jax.global_constant = ""}) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @remainder(%arg0: tensor<i32> {jax.global_constant = ""}, %arg1: tensor<i32> {jax.global_constant = ""}) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = call @_where(%0, %c, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.compare LT, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
}
