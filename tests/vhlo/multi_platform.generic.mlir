"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{jax.global_constant = "_platform_index"}, {}, {}, {}, {}, {}], function_type = (tensor<i32>, tensor<8xf32>, tensor<3xf32>, tensor<4x8xf32>, tensor<8x3xf32>, tensor<2x4xf32>) -> tensor<2x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<8xf32>, %arg2: tensor<3xf32>, %arg3: tensor<4x8xf32>, %arg4: tensor<8x3xf32>, %arg5: tensor<2x4xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.case"(%arg0) ({
      "stablehlo.return"(%3) : (tensor<i32>) -> ()
    }, {
      "stablehlo.return"(%2) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %31 = "stablehlo.dot_general"(%arg5, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
      "stablehlo.return"(%31) : (tensor<2x8xf32>) -> ()
    }, {
      %30 = "stablehlo.dot_general"(%arg5, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
      "stablehlo.return"(%30) : (tensor<2x8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<2x8xf32>
    %6 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<2x8xf32>
    %8 = "stablehlo.add"(%5, %7) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %9 = "stablehlo.tanh"(%8) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %10 = "stablehlo.case"(%arg0) ({
      "stablehlo.return"(%3) : (tensor<i32>) -> ()
    }, {
      "stablehlo.return"(%2) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
    %11 = "stablehlo.case"(%10) ({
      %29 = "stablehlo.dot_general"(%9, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
      "stablehlo.return"(%29) : (tensor<2x3xf32>) -> ()
    }, {
      %28 = "stablehlo.dot_general"(%9, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
      "stablehlo.return"(%28) : (tensor<2x3xf32>) -> ()
    }) : (tensor<i32>) -> tensor<2x3xf32>
    %12 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<1x3xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %14 = "stablehlo.add"(%11, %13) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.reduce"(%14, %1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %27 = "stablehlo.maximum"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%27) : (tensor<f32>) -> ()
    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %16 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %17 = "stablehlo.maximum"(%16, %15) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %20 = "stablehlo.subtract"(%14, %19) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %21 = "stablehlo.exponential"(%20) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %22 = "stablehlo.reduce"(%21, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %26 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%26) : (tensor<f32>) -> ()
    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x1xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %25 = "stablehlo.divide"(%21, %24) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%25) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
