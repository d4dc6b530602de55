// Shared input of several CLI cases (tests/cli/*.toml with fs.cwd = "data").
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) {
  %0 = stablehlo.add %a, %b : tensor<2xf32>
  %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0, %1 : tensor<2xf32>, tensor<2xi1>
}
