"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<3x3xf32>, tensor<6x6xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<6x6xf32>):
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.reduce_window"(%arg4, %7) <{padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %13 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%13) : (tensor<f32>) -> ()
    }) : (tensor<6x6xf32>, tensor<f32>) -> tensor<6x6xf32>
    %9 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %10 = "stablehlo.reduce_window"(%arg4, %9) <{padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %12 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%12) : (tensor<f32>) -> ()
    }) : (tensor<6x6xf32>, tensor<f32>) -> tensor<3x3xf32>
    %11 = "func.call"(%arg4) <{callee = @cumsum}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    "func.return"(%8, %10, %11) : (tensor<6x6xf32>, tensor<3x3xf32>, tensor<6x6xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x6xf32>) -> tensor<6x6xf32>, sym_name = "cumsum", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<6x6xf32>):
    %4 = "func.call"(%arg3) <{callee = @cumsum_0}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    "func.return"(%4) : (tensor<6x6xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x6xf32>) -> tensor<6x6xf32>, sym_name = "cumsum_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<6x6xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%arg0, %1) <{padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 6>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<6x6xf32>, tensor<f32>) -> tensor<6x6xf32>
    "func.return"(%2) : (tensor<6x6xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
