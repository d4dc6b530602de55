func.func @ok() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi32>
  func.return
}

// -----

func.func @wrong() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.add %a, %a : tensor<2xf32>
  check.expect_eq_const %b, dense<[2.0, 5.0]> : tensor<2xf32>
  func.return
}
