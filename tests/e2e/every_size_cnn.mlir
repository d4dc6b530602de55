module @jit_cnn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x12x12x3xf32>, %arg1: tensor<3x3x3x8xf32>, %arg2: tensor<3x3x8x8xf32>, %arg3: tensor<8x5xf32>) -> (tensor<?x5xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x12x12x3xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 12, 12, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3) : (tensor<i32>, tensor<?x12x12x3xf32>, tensor<3x3x3x8xf32>, tensor<3x3x8x8xf32>, tensor<8x5xf32>) -> tensor<?x5xf32>
    return %2 : tensor<?x5xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x12x12x3xf32>, %arg2: tensor<3x3x3x8xf32>, %arg3: tensor<3x3x8x8xf32>, %arg4: tensor<8x5xf32>) -> (tensor<?x5xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<5> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<8> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.convolution(%arg1, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x12x12x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x12x12x8xf32>
    %1 = call @relu(%arg0, %0) : (tensor<i32>, tensor<?x12x12x8xf32>) -> tensor<?x12x12x8xf32>
    %2 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%1, %2) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %36 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %36 : tensor<f32>
    }) : (tensor<?x12x12x8xf32>, tensor<f32>) -> tensor<?x6x6x8xf32>
    %4 = stablehlo.convolution(%3, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x6x8xf32>, tensor<3x3x8x8xf32>) -> tensor<?x2x2x8xf32>
    %5 = call @relu_0(%arg0, %4) : (tensor<i32>, tensor<?x2x2x8xf32>) -> tensor<?x2x2x8xf32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<f32>
    %7 = "stablehlo.reduce_window"(%5, %6) <{window_dimensions = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %36 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %36 : tensor<f32>
    }) : (tensor<?x2x2x8xf32>, tensor<f32>) -> tensor<?x1x1x8xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_1, %c_1, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %cst, %9, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x1x1x8xf32>
    %11 = stablehlo.divide %7, %10 : tensor<?x1x1x8xf32>
    %12 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.concatenate %12, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %14 = stablehlo.dynamic_reshape %11, %13 : (tensor<?x1x1x8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
    %15 = stablehlo.dot_general %14, %arg4, contracting_dims = [1] x [0] : (tensor<?x8xf32>, tensor<8x5xf32>) -> tensor<?x5xf32>
    %16 = stablehlo.reduce(%15 init: %cst_3) applies stablehlo.maximum across dimensions = [1] : (tensor<?x5xf32>, tensor<f32>) -> tensor<?xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.dynamic_broadcast_in_dim %cst_3, %17, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>
    %19 = stablehlo.maximum %18, %16 : tensor<?xf32>
    %20 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.concatenate %20, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %22 = stablehlo.dynamic_broadcast_in_dim %19, %21, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %22, %24, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x5xf32>
    %26 = stablehlo.subtract %15, %25 : tensor<?x5xf32>
    %27 = stablehlo.exponential %26 : tensor<?x5xf32>
    %28 = stablehlo.reduce(%27 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<?x5xf32>, tensor<f32>) -> tensor<?xf32>
    %29 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %29, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %31 = stablehlo.dynamic_broadcast_in_dim %28, %30, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %32 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.concatenate %32, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %34 = stablehlo.dynamic_broadcast_in_dim %31, %33, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x5xf32>
    %35 = stablehlo.divide %27, %34 : tensor<?x5xf32>
    return %35 : tensor<?x5xf32>
  }
  func.func private @relu(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x12x12x8xf32>) -> tensor<?x12x12x8xf32> {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<12> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x12x12x8xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x12x12x8xf32>
    return %3 : tensor<?x12x12x8xf32>
  }
  func.func private @relu_0(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x2x2x8xf32>) -> tensor<?x2x2x8xf32> {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, %c_0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x2x2x8xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x2x2x8xf32>
    return %3 : tensor<?x2x2x8xf32>
  }
}
