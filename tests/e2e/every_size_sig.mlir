module @jit_sig attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x16xf32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 16). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x16xf32>) -> tensor<?x3xf32>
    return %2 : tensor<?x3xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x16xf32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0, %arg1) : (tensor<i32>, tensor<?x16xf32>) -> tensor<?x9xcomplex<f32>>
    %1 = stablehlo.abs %0 : (tensor<?x9xcomplex<f32>>) -> tensor<?x9xf32>
    %2:2 = stablehlo.composite "chlo.top_k" %1 {composite_attributes = {k = 3 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<?x9xf32>) -> (tensor<?x3xf32>, tensor<?x3xi32>)
    return %2#0 : tensor<?x3xf32>
  }
  func.func private @chlo.top_k.impl(%arg0: tensor<?x9xf32> loc("jit(sig)/top_k"(#loc19))) -> (tensor<?x3xf32>, tensor<?x3xi32>) {
    %c = stablehlo.constant dense<1> : tensor<2xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<2xi64>
    %c_1 = stablehlo.constant dense<3> : tensor<i64>
    %c_2 = stablehlo.constant dense<9> : tensor<i64>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x9xf32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = stablehlo.reshape %1 : (tensor<i64>) -> tensor<1xi64>
    %3 = stablehlo.reshape %c_2 : (tensor<i64>) -> tensor<1xi64>
    %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %5 = stablehlo.reshape %c_1 : (tensor<i64>) -> tensor<1xi64>
    %6 = stablehlo.concatenate %2, %5, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %7 = stablehlo.dynamic_iota %4, dim = 1 : (tensor<2xi64>) -> tensor<?x9xi32>
    %8:2 = "stablehlo.sort"(%arg0, %7) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32> loc("jit(sig)/top_k"(#loc19)), %arg2: tensor<f32> loc("jit(sig)/top_k"(#loc19)), %arg3: tensor<i32> loc("jit(sig)/top_k"(#loc19)), %arg4: tensor<i32> loc("jit(sig)/top_k"(#loc19))):
      %11 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }) : (tensor<?x9xf32>, tensor<?x9xi32>) -> (tensor<?x9xf32>, tensor<?x9xi32>)
    %9 = stablehlo.real_dynamic_slice %8#0, %c_0, %6, %c : (tensor<?x9xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x3xf32>
    %10 = stablehlo.real_dynamic_slice %8#1, %c_0, %6, %c : (tensor<?x9xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x3xi32>
    return %9, %10 : tensor<?x3xf32>, tensor<?x3xi32>
  }
  func.func private @fft(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x16xf32>) -> tensor<?x9xcomplex<f32>> {
    %0 = stablehlo.fft %arg1, type = RFFT, length = [16] : (tensor<?x16xf32>) -> tensor<?x9xcomplex<f32>>
    return %0 : tensor<?x9xcomplex<f32>>
  }
}
