module @jit_rnn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x5x4xf32>, %arg1: tensor<10x6xf32>) -> (tensor<?x5x6xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x5x4xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 5, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1) : (tensor<i32>, tensor<?x5x4xf32>, tensor<10x6xf32>) -> tensor<?x5x6xf32>
    return %2 : tensor<?x5x6xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x5x4xf32>, %arg2: tensor<10x6xf32>) -> (tensor<?x5x6xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<5> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %c_3 = stablehlo.constant dense<6> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x6xf32>
    %3 = stablehlo.transpose %arg1, dims = [1, 0, 2] : (tensor<?x5x4xf32>) -> tensor<5x?x4xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %c_1, %4, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<5x?x6xf32>
    %7:5 = stablehlo.while(%iterArg = %3, %iterArg_4 = %arg2, %iterArg_5 = %c_0, %iterArg_6 = %2, %iterArg_7 = %6) : tensor<5x?x4xf32>, tensor<10x6xf32>, tensor<i32>, tensor<?x6xf32>, tensor<5x?x6xf32>
    cond {
      %9 = stablehlo.compare LT, %iterArg_5, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    } do {
      %9 = func.call @dynamic_index_in_dim(%arg0, %iterArg, %iterArg_5) : (tensor<i32>, tensor<5x?x4xf32>, tensor<i32>) -> tensor<?x4xf32>
      %10:2 = func.call @closed_call(%arg0, %iterArg_4, %iterArg_6, %9) : (tensor<i32>, tensor<10x6xf32>, tensor<?x6xf32>, tensor<?x4xf32>) -> (tensor<?x6xf32>, tensor<?x6xf32>)
      %11 = func.call @dynamic_update_index_in_dim(%arg0, %iterArg_7, %10#1, %iterArg_5) : (tensor<i32>, tensor<5x?x6xf32>, tensor<?x6xf32>, tensor<i32>) -> tensor<5x?x6xf32>
      %12 = stablehlo.add %iterArg_5, %c : tensor<i32>
      stablehlo.return %iterArg, %iterArg_4, %12, %10#0, %11 : tensor<5x?x4xf32>, tensor<10x6xf32>, tensor<i32>, tensor<?x6xf32>, tensor<5x?x6xf32>
    }
    %8 = stablehlo.transpose %7#4, dims = [1, 0, 2] : (tensor<5x?x6xf32>) -> tensor<?x5x6xf32>
    return %8 : tensor<?x5x6xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<5x?x4xf32>, %arg2: tensor<i32>) -> tensor<?x4xf32> {
    %c = stablehlo.constant dense<5> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %c_3, %0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2 = stablehlo.concatenate %c_0, %c_0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.reshape %arg2 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.reshape %c_2 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.reshape %c_2 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %3, %4, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %c, %7, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %9 = stablehlo.subtract %8, %1 : tensor<3xi32>
    %10 = stablehlo.clamp %2, %6, %9 : tensor<3xi32>
    %11 = stablehlo.add %10, %1 : tensor<3xi32>
    %12 = stablehlo.concatenate %c_3, %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.real_dynamic_slice %arg1, %10, %11, %12 : (tensor<5x?x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x?x4xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_reshape %13, %15 : (tensor<1x?x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    return %16 : tensor<?x4xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<10x6xf32>, %arg2: tensor<?x6xf32>, %arg3: tensor<?x4xf32>) -> (tensor<?x6xf32>, tensor<?x6xf32>) {
    %0 = stablehlo.slice %arg1 [0:4, 0:6] : (tensor<10x6xf32>) -> tensor<4x6xf32>
    %1 = stablehlo.dot_general %arg3, %0, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
    %2 = stablehlo.slice %arg1 [4:10, 0:6] : (tensor<10x6xf32>) -> tensor<6x6xf32>
    %3 = stablehlo.dot_general %arg2, %2, contracting_dims = [1] x [0] : (tensor<?x6xf32>, tensor<6x6xf32>) -> tensor<?x6xf32>
    %4 = stablehlo.add %1, %3 : tensor<?x6xf32>
    %5 = stablehlo.tanh %4 : tensor<?x6xf32>
    return %5, %5 : tensor<?x6xf32>, tensor<?x6xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<5x?x6xf32>, %arg2: tensor<?x6xf32>, %arg3: tensor<i32>) -> tensor<5x?x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<6> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %c_1, %0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %arg2, %1, dims = [1, 2] : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<1x?x6xf32>
    %3 = stablehlo.dynamic_update_slice %arg1, %2, %arg3, %c, %c : (tensor<5x?x6xf32>, tensor<1x?x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<5x?x6xf32>
    return %3 : tensor<5x?x6xf32>
  }
}
