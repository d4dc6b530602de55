// C ABI end-to-end case (built and run by tools/strata/tests/e2e.rs with abi.c): several public
// functions, several results, integer / pred / f64 / f16 buffers, a scalar, and a private helper
// that must not be exported.
module @abi {
  func.func public @main(%a: tensor<3xf32>, %b: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>, tensor<3xi1>) {
    %two = stablehlo.constant dense<2.0> : tensor<3xf32>
    %one = stablehlo.constant dense<1> : tensor<3xi32>
    %zero = stablehlo.constant dense<0.0> : tensor<3xf32>
    %0 = stablehlo.multiply %a, %two : tensor<3xf32>
    %1 = stablehlo.add %b, %one : tensor<3xi32>
    %2 = stablehlo.compare GT, %a, %zero, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    return %0, %1, %2 : tensor<3xf32>, tensor<3xi32>, tensor<3xi1>
  }
  func.func public @neg(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
    %0 = call @helper(%x) : (tensor<2x2xf64>) -> tensor<2x2xf64>
    return %0 : tensor<2x2xf64>
  }
  func.func private @helper(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
    %0 = stablehlo.negate %x : tensor<2x2xf64>
    return %0 : tensor<2x2xf64>
  }
  func.func public @half(%h: tensor<2xf16>, %s: tensor<i64>) -> (tensor<2xf16>, tensor<i64>) {
    %0 = stablehlo.add %h, %h : tensor<2xf16>
    %1 = stablehlo.add %s, %s : tensor<i64>
    return %0, %1 : tensor<2xf16>, tensor<i64>
  }
}
