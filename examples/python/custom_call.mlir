// A model with a custom call the host implements: y = clip(x) * 2, where
// @host_clip is registered by the program that loads the library
// (examples/python/custom_call.py registers a Python function).
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.custom_call @host_clip(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %two = stablehlo.constant dense<2.0> : tensor<8xf32>
  %y = stablehlo.multiply %c, %two : tensor<8xf32>
  return %y : tensor<8xf32>
}
