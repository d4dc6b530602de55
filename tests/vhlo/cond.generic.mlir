"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.convert"(%arg0) : (tensor<i1>) -> tensor<i32>
    %2 = "stablehlo.case"(%1) ({
      %4 = "stablehlo.cosine"(%arg1) : (tensor<3xf32>) -> tensor<3xf32>
      %5 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
      %6 = "stablehlo.multiply"(%4, %5) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%6) : (tensor<3xf32>) -> ()
    }, {
      %3 = "stablehlo.sine"(%arg1) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%3) : (tensor<3xf32>) -> ()
    }) : (tensor<i32>) -> tensor<3xf32>
    "func.return"(%2) : (tensor<3xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
