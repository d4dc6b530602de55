func.func @main(%x: tensor<4x3xf32>, %b: tensor<3xi1>, %h: tensor<2xf16>) -> (tensor<3x4xf32>, tensor<3xi1>, tensor<2xf16>, tensor<2xbf16>) {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %nb = stablehlo.not %b : tensor<3xi1>
  %h2 = stablehlo.add %h, %h : tensor<2xf16>
  %bf = stablehlo.convert %h2 : (tensor<2xf16>) -> tensor<2xbf16>
  return %t, %nb, %h2, %bf : tensor<3x4xf32>, tensor<3xi1>, tensor<2xf16>, tensor<2xbf16>
}
