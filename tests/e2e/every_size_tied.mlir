// every_size_unnamed.mlir's MLP with two `?` arguments the program combines row by row:
// mlp((x + y) * 0.5). Unnamed, they are the variables arg0_dim0 and arg1_dim0; the add requires
// them equal, so the library takes one size, arg0_dim0. Called with y = x, (x + x) * 0.5 is x
// exactly, so XLA's results for the MLP (every_size_data.h) are its results.
module {
  func.func @main(%arg0: tensor<?x24xf32>, %arg1: tensor<?x24xf32>, %arg2: tensor<24x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x10xf32>, %arg5: tensor<10xf32>) -> tensor<?x10xf32> {
    %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x24xf32>) -> tensor<i32>
    %half = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c_24 = stablehlo.constant dense<24> : tensor<1xi32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %c_24, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %halves = stablehlo.dynamic_broadcast_in_dim %half, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x24xf32>
    %sum = stablehlo.add %arg0, %arg1 : tensor<?x24xf32>
    %x = stablehlo.multiply %sum, %halves : tensor<?x24xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_1 = stablehlo.constant dense<10> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.dot_general %x, %arg2, contracting_dims = [1] x [0] : (tensor<?x24xf32>, tensor<24x32xf32>) -> tensor<?x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %1, %3, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %5 = stablehlo.add %0, %4 : tensor<?x32xf32>
    %6 = stablehlo.tanh %5 : tensor<?x32xf32>
    %7 = stablehlo.dot_general %6, %arg4, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x10xf32>) -> tensor<?x10xf32>
    %8 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %9 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %8, %10, dims = [0, 1] : (tensor<1x10xf32>, tensor<2xi32>) -> tensor<?x10xf32>
    %12 = stablehlo.add %7, %11 : tensor<?x10xf32>
    %13 = stablehlo.reduce(%12 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<?x10xf32>, tensor<f32>) -> tensor<?xf32>
    %14 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %cst_0, %14, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>
    %16 = stablehlo.maximum %15, %13 : tensor<?xf32>
    %17 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %16, %18, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %20 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.concatenate %20, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %22 = stablehlo.dynamic_broadcast_in_dim %19, %21, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x10xf32>
    %23 = stablehlo.subtract %12, %22 : tensor<?x10xf32>
    %24 = stablehlo.exponential %23 : tensor<?x10xf32>
    %25 = stablehlo.reduce(%24 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<?x10xf32>, tensor<f32>) -> tensor<?xf32>
    %26 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %26, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %28 = stablehlo.dynamic_broadcast_in_dim %25, %27, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %29 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %29, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %31 = stablehlo.dynamic_broadcast_in_dim %28, %30, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x10xf32>
    %32 = stablehlo.divide %24, %31 : tensor<?x10xf32>
    return %32 : tensor<?x10xf32>
  }
}
