module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x4xf32>, %arg4: tensor<4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<4x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x16xf32>
    %4 = stablehlo.tanh %3 : tensor<4x16xf32>
    %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<4x4xf32>
    %8 = stablehlo.add %5, %7 : tensor<4x4xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %11 = stablehlo.maximum %10, %9 : tensor<4xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x4xf32>
    %14 = stablehlo.subtract %8, %13 : tensor<4x4xf32>
    %15 = stablehlo.exponential %14 : tensor<4x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x4xf32>
    %19 = stablehlo.divide %15, %18 : tensor<4x4xf32>
    return %19 : tensor<4x4xf32>
  }
}
