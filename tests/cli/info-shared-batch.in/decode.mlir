module @jit_decode attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x2x8x4xf32>, %arg1: tensor<?x2x4xf32>, %arg2: tensor<i32>) -> (tensor<?x2x8x4xf32> {jax.result_info = "result[0]"}, tensor<?x2x4xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x2x8x4xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x2x4xf32>) -> tensor<i32>
    %2 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 2, 8, 4),args[1].shape = (b, 2, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = stablehlo.compare EQ, %1, %0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification 'b' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (b, 2, 8, 4),args[1].shape = (b, 2, 4). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[0].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %4:2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2) : (tensor<i32>, tensor<?x2x8x4xf32>, tensor<?x2x4xf32>, tensor<i32>) -> (tensor<?x2x8x4xf32>, tensor<?x2x4xf32>)
    return %4#0, %4#1 : tensor<?x2x8x4xf32>, tensor<?x2x4xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x2x8x4xf32>, %arg2: tensor<?x2x4xf32>, %arg3: tensor<i32>) -> (tensor<?x2x8x4xf32> {jax.result_info = "result[0]"}, tensor<?x2x4xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_1 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<2> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_6, %c_5, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %arg2, %1, dims = [0, 1, 3] : (tensor<?x2x4xf32>, tensor<4xi32>) -> tensor<?x2x1x4xf32>
    %3 = stablehlo.compare LT, %arg3, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.add %arg3, %c_2 : tensor<i32>
    %5 = stablehlo.select %3, %4, %arg3 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_update_slice %arg1, %2, %c_3, %c_3, %5, %c_3 : (tensor<?x2x8x4xf32>, tensor<?x2x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x2x8x4xf32>
    %7 = stablehlo.dot_general %arg2, %6, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3] : (tensor<?x2x4xf32>, tensor<?x2x8x4xf32>) -> tensor<?x2x8xf32>
    %8 = stablehlo.iota dim = 0 : tensor<8xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [2] : (tensor<8xi32>) -> tensor<1x1x8xi32>
    %10 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<i32>) -> tensor<1x1x8xi32>
    %11 = stablehlo.compare LE, %9, %10, SIGNED : (tensor<1x1x8xi32>, tensor<1x1x8xi32>) -> tensor<1x1x8xi1>
    %12 = call @_where(%arg0, %11, %7, %cst_1) : (tensor<i32>, tensor<1x1x8xi1>, tensor<?x2x8xf32>, tensor<f32>) -> tensor<?x2x8xf32>
    %13 = stablehlo.reduce(%12 init: %cst_0) applies stablehlo.maximum across dimensions = [2] : (tensor<?x2x8xf32>, tensor<f32>) -> tensor<?x2xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %cst_0, %15, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
    %17 = stablehlo.maximum %16, %13 : tensor<?x2xf32>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %17, %19, dims = [0, 1] : (tensor<?x2xf32>, tensor<3xi32>) -> tensor<?x2x1xf32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.concatenate %21, %c_6, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %23 = stablehlo.dynamic_broadcast_in_dim %20, %22, dims = [0, 1, 2] : (tensor<?x2x1xf32>, tensor<3xi32>) -> tensor<?x2x8xf32>
    %24 = stablehlo.subtract %12, %23 : tensor<?x2x8xf32>
    %25 = stablehlo.exponential %24 : tensor<?x2x8xf32>
    %26 = stablehlo.reduce(%25 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x2x8xf32>, tensor<f32>) -> tensor<?x2xf32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %26, %28, dims = [0, 1] : (tensor<?x2xf32>, tensor<3xi32>) -> tensor<?x2x1xf32>
    %30 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %31 = stablehlo.concatenate %30, %c_6, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %32 = stablehlo.dynamic_broadcast_in_dim %29, %31, dims = [0, 1, 2] : (tensor<?x2x1xf32>, tensor<3xi32>) -> tensor<?x2x8xf32>
    %33 = stablehlo.divide %25, %32 : tensor<?x2x8xf32>
    %34 = stablehlo.dot_general %33, %6, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<?x2x8xf32>, tensor<?x2x8x4xf32>) -> tensor<?x2x4xf32>
    return %6, %34 : tensor<?x2x8x4xf32>, tensor<?x2x4xf32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<1x1x8xi1>, %arg2: tensor<?x2x8xf32>, %arg3: tensor<f32>) -> tensor<?x2x8xf32> {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %0 = stablehlo.convert %arg3 : tensor<f32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [0, 1, 2] : (tensor<1x1x8xi1>, tensor<3xi32>) -> tensor<?x2x8xi1>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %0, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x2x8xf32>
    %7 = stablehlo.select %3, %arg2, %6 : tensor<?x2x8xi1>, tensor<?x2x8xf32>
    return %7 : tensor<?x2x8xf32>
  }
}
