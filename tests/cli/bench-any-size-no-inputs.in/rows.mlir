func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
