"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8xf32>, tensor<3xf32>, tensor<4x8xf32>, tensor<8x3xf32>, tensor<2x4xf32>) -> tensor<2x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4x8xf32>, %arg3: tensor<8x3xf32>, %arg4: tensor<2x4xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.dot_general"(%arg4, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
    %3 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<2x8xf32>
    %5 = "stablehlo.add"(%2, %4) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %6 = "stablehlo.tanh"(%5) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %7 = "stablehlo.dot_general"(%6, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<1x3xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.add"(%7, %9) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "stablehlo.reduce"(%10, %1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %23 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%23) : (tensor<f32>) -> ()
    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %12 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %13 = "stablehlo.maximum"(%12, %11) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %16 = "stablehlo.subtract"(%10, %15) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "stablehlo.exponential"(%16) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "stablehlo.reduce"(%17, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %22 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %21 = "stablehlo.divide"(%17, %20) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%21) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
