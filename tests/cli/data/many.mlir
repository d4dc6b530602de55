func.func public @main(%a0: tensor<2xf32>, %a1: tensor<2xf32>, %a2: tensor<2xf32>, %a3: tensor<2xf32>, %a4: tensor<2xf32>, %a5: tensor<2xf32>, %a6: tensor<2xf32>, %a7: tensor<2xf32>, %a8: tensor<2xf32>, %a9: tensor<2xf32>, %a10: tensor<2xf32>, %a11: tensor<2xf32>, %a12: tensor<2xf32>, %a13: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = stablehlo.add %a0, %a1 : tensor<2xf32>
  %1 = stablehlo.add %0, %a2 : tensor<2xf32>
  %2 = stablehlo.add %1, %a3 : tensor<2xf32>
  %3 = stablehlo.add %2, %a4 : tensor<2xf32>
  %4 = stablehlo.add %3, %a5 : tensor<2xf32>
  %5 = stablehlo.add %4, %a6 : tensor<2xf32>
  %6 = stablehlo.add %5, %a7 : tensor<2xf32>
  %7 = stablehlo.add %6, %a8 : tensor<2xf32>
  %8 = stablehlo.add %7, %a9 : tensor<2xf32>
  %9 = stablehlo.add %8, %a10 : tensor<2xf32>
  %10 = stablehlo.add %9, %a11 : tensor<2xf32>
  %11 = stablehlo.add %10, %a12 : tensor<2xf32>
  %12 = stablehlo.multiply %11, %a13 : tensor<2xf32>
  return %11, %12 : tensor<2xf32>, tensor<2xf32>
}
