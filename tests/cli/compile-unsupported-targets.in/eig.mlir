func.func @main(%a: tensor<3x3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0:3 = stablehlo.custom_call @lapack_cgees_ffi(%a) : (tensor<3x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<i32>)
  %2:5 = stablehlo.custom_call @lapack_sgees_ffi(%a) : (tensor<3x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<i32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}
