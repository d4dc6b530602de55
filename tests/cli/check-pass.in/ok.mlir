func.func @add() {
  %a = stablehlo.constant dense<[1.0, 2.0, -3.5]> : tensor<3xf32>
  %b = stablehlo.add %a, %a : tensor<3xf32>
  check.expect_eq_const %b, dense<[2.0, 4.0, -7.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @mul() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.multiply %a, %a : tensor<2x2xi32>
  check.expect_eq_const %b, dense<[[1, 4], [9, 16]]> : tensor<2x2xi32>
  %c = stablehlo.constant dense<0.1> : tensor<f32>
  %d = stablehlo.add %c, %c : tensor<f32>
  check.expect_almost_eq_const %d, dense<0.2> : tensor<f32>
  func.return
}
