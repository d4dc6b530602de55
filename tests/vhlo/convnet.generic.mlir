"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<3x3x2x4xf32>, tensor<4xf32>, tensor<1x8x8x2xf32>) -> tensor<1x4x4x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg10: tensor<4xf32>, %arg11: tensor<3x3x2x4xf32>, %arg12: tensor<4xf32>, %arg13: tensor<1x8x8x2xf32>):
    %25 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %28 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.convolution"(%arg13, %arg11) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>}> : (tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x8x8x4xf32>
    %31 = "stablehlo.reduce"(%30, %29) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %54 = "stablehlo.add"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%54) : (tensor<f32>) -> ()
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %32 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %33 = "stablehlo.divide"(%31, %32) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %34 = "func.call"(%30, %27) <{callee = @_var}> : (tensor<1x8x8x4xf32>, tensor<i32>) -> tensor<4xf32>
    %35 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 3>}> : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
    %37 = "stablehlo.subtract"(%30, %36) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %38 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %39 = "stablehlo.add"(%34, %38) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %40 = "stablehlo.rsqrt"(%39) : (tensor<4xf32>) -> tensor<4xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 3>}> : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
    %43 = "stablehlo.multiply"(%37, %42) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %44 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64: 3>}> : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
    %46 = "stablehlo.multiply"(%43, %45) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %47 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 3>}> : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
    %49 = "stablehlo.add"(%46, %48) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %50 = "func.call"(%49) <{callee = @relu}> : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %51 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %52 = "stablehlo.reduce_window"(%50, %51) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %53 = "stablehlo.maximum"(%arg14, %arg15) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%53) : (tensor<f32>) -> ()
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    "func.return"(%52) : (tensor<1x4x4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<1x8x8x4xf32>, tensor<i32>) -> tensor<4xf32>, sym_name = "_var", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<1x8x8x4xf32>, %arg5: tensor<i32>):
    %6 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%arg4, %8) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %24 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 3>}> : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %11 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1x1x4xf32>
    %12 = "stablehlo.divide"(%10, %11) : (tensor<1x1x1x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
    %14 = "stablehlo.subtract"(%arg4, %13) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %15 = "stablehlo.multiply"(%14, %14) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %16 = "stablehlo.convert"(%arg5) : (tensor<i32>) -> tensor<f32>
    %17 = "stablehlo.subtract"(%7, %16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %18 = "stablehlo.reduce"(%15, %8) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %23 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%23) : (tensor<f32>) -> ()
    }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %19 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %20 = "stablehlo.divide"(%18, %19) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %21 = "stablehlo.compare"(%17, %8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %22 = "func.call"(%21, %20, %6) <{callee = @_where}> : (tensor<i1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%22) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<i1>, %arg2: tensor<4xf32>, %arg3: tensor<f32>):
    %3 = "stablehlo.convert"(%arg3) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %5 = "stablehlo.select"(%arg1, %arg2, %4) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%5) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>, sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<1x8x8x4xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x8x8x4xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    "func.return"(%2) : (tensor<1x8x8x4xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
