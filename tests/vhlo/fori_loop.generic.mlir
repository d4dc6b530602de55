"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:3 = "stablehlo.while"(%2, %arg1, %arg0) ({
    ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<3xf32>):
      %10 = "stablehlo.compare"(%arg5, %arg6) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%10) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<3xf32>):
      %4 = "stablehlo.add"(%arg2, %1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %5 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
      %6 = "stablehlo.multiply"(%arg4, %5) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %7 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<f32>
      %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
      %9 = "stablehlo.add"(%6, %8) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%4, %arg3, %9) : (tensor<i32>, tensor<i32>, tensor<3xf32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<i32>, tensor<3xf32>)
    "func.return"(%3#2) : (tensor<3xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
