module @jit_lm attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x6x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<12x8xf32>) -> (tensor<?x12xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x6x8xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 6, 8). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<i32>, tensor<?x6x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<12x8xf32>) -> tensor<?x12xf32>
    return %2 : tensor<?x12xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x6x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<8x8xf32>, %arg5: tensor<12x8xf32>) -> (tensor<?x12xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<12> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %c_4 = stablehlo.constant dense<6> : tensor<1xi32>
    %c_5 = stablehlo.constant dense<6> : tensor<i32>
    %cst_6 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [2] x [0] : (tensor<?x6x8xf32>, tensor<8x8xf32>) -> tensor<?x6x8xf32>
    %1 = stablehlo.dot_general %arg1, %arg3, contracting_dims = [2] x [0] : (tensor<?x6x8xf32>, tensor<8x8xf32>) -> tensor<?x6x8xf32>
    %2 = stablehlo.dot_general %arg1, %arg4, contracting_dims = [2] x [0] : (tensor<?x6x8xf32>, tensor<8x8xf32>) -> tensor<?x6x8xf32>
    %3 = stablehlo.transpose %1, dims = [0, 2, 1] : (tensor<?x6x8xf32>) -> tensor<?x8x6xf32>
    %4 = stablehlo.dot_general %0, %3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x6x8xf32>, tensor<?x8x6xf32>) -> tensor<?x6x6xf32>
    %5 = stablehlo.sqrt %cst_6 : tensor<f32>
    %6 = stablehlo.convert %5 : tensor<f32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_4, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %9 = stablehlo.dynamic_broadcast_in_dim %6, %8, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x6x6xf32>
    %10 = stablehlo.divide %4, %9 : tensor<?x6x6xf32>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %12 = call @tril(%arg0, %11) : (tensor<i32>, tensor<6x6xi1>) -> tensor<6x6xi1>
    %13 = call @_where(%arg0, %12, %10, %cst_2) : (tensor<i32>, tensor<6x6xi1>, tensor<?x6x6xf32>, tensor<f32>) -> tensor<?x6x6xf32>
    %14 = stablehlo.reduce(%13 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<?x6x6xf32>, tensor<f32>) -> tensor<?x6xf32>
    %15 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %16 = stablehlo.concatenate %15, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %17 = stablehlo.dynamic_broadcast_in_dim %cst_1, %16, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x6xf32>
    %18 = stablehlo.maximum %17, %14 : tensor<?x6xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_4, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %18, %20, dims = [0, 1] : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<?x6x1xf32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_4, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %21, %23, dims = [0, 1, 2] : (tensor<?x6x1xf32>, tensor<3xi32>) -> tensor<?x6x6xf32>
    %25 = stablehlo.subtract %13, %24 : tensor<?x6x6xf32>
    %26 = stablehlo.exponential %25 : tensor<?x6x6xf32>
    %27 = stablehlo.reduce(%26 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x6x6xf32>, tensor<f32>) -> tensor<?x6xf32>
    %28 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.concatenate %28, %c_4, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %30 = stablehlo.dynamic_broadcast_in_dim %27, %29, dims = [0, 1] : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<?x6x1xf32>
    %31 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_4, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %30, %32, dims = [0, 1, 2] : (tensor<?x6x1xf32>, tensor<3xi32>) -> tensor<?x6x6xf32>
    %34 = stablehlo.divide %26, %33 : tensor<?x6x6xf32>
    %35 = stablehlo.dot_general %34, %2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x6x6xf32>, tensor<?x6x8xf32>) -> tensor<?x6x8xf32>
    %36 = stablehlo.add %arg1, %35 : tensor<?x6x8xf32>
    %37 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<12x8xf32>) -> tensor<8x12xf32>
    %38 = stablehlo.dot_general %36, %37, contracting_dims = [2] x [0] : (tensor<?x6x8xf32>, tensor<8x12xf32>) -> tensor<?x6x12xf32>
    %39 = stablehlo.convert %arg0 : tensor<i32>
    %40 = stablehlo.multiply %39, %c_5 : tensor<i32>
    %41 = stablehlo.reshape %40 : (tensor<i32>) -> tensor<1xi32>
    %42 = stablehlo.concatenate %41, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %43 = stablehlo.dynamic_reshape %38, %42 : (tensor<?x6x12xf32>, tensor<2xi32>) -> tensor<?x12xf32>
    return %43 : tensor<?x12xf32>
  }
  func.func private @tril(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<6x6xi1>) -> tensor<6x6xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6x6xi32>
    %2 = stablehlo.add %0, %1 : tensor<6x6xi32>
    %3 = stablehlo.iota dim = 1 : tensor<6x6xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %6 = stablehlo.select %4, %arg1, %5 : tensor<6x6xi1>, tensor<6x6xi1>
    return %6 : tensor<6x6xi1>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<6x6xi1>, %arg2: tensor<?x6x6xf32>, %arg3: tensor<f32>) -> tensor<?x6x6xf32> {
    %c = stablehlo.constant dense<6> : tensor<1xi32>
    %0 = stablehlo.convert %arg3 : tensor<f32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [1, 2] : (tensor<6x6xi1>, tensor<3xi32>) -> tensor<?x6x6xi1>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %0, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x6x6xf32>
    %7 = stablehlo.select %3, %arg2, %6 : tensor<?x6x6xi1>, tensor<?x6x6xf32>
    return %7 : tensor<?x6x6xf32>
  }
}
