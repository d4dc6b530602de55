"builtin.module"() <{sym_name = "jit_block"}> ({
  "func.func"() <{function_type = (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x16xf32>, tensor<16x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<2x4x8xf32>, tensor<1x4x4xi1>) -> tensor<2x4x8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<8xf32>, %arg6: tensor<8xf32>, %arg7: tensor<8x16xf32>, %arg8: tensor<16x8xf32>, %arg9: tensor<8x8xf32>, %arg10: tensor<8x8xf32>, %arg11: tensor<8x8xf32>, %arg12: tensor<8x8xf32>, %arg13: tensor<2x4x8xf32>, %arg14: tensor<1x4x4xi1>):
    %4 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.constant"() <{value = dense<2.82842708> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%arg13, %13) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %104 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%104) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
    %16 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x1xf32>
    %17 = "stablehlo.divide"(%15, %16) : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
    %19 = "stablehlo.subtract"(%arg13, %18) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %20 = "stablehlo.multiply"(%19, %19) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %21 = "stablehlo.reduce"(%20, %13) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %103 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%103) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
    %23 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x1xf32>
    %24 = "stablehlo.divide"(%22, %23) : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %25 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
    %26 = "stablehlo.subtract"(%arg13, %25) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %27 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x1xf32>
    %28 = "stablehlo.add"(%24, %27) : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %29 = "stablehlo.rsqrt"(%28) : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
    %31 = "stablehlo.multiply"(%26, %30) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %32 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x4x8xf32>
    %34 = "stablehlo.multiply"(%31, %33) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %35 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x4x8xf32>
    %37 = "stablehlo.add"(%34, %36) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %38 = "stablehlo.dot_general"(%37, %arg11) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    %39 = "stablehlo.dot_general"(%37, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    %40 = "stablehlo.dot_general"(%37, %arg12) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    %41 = "stablehlo.dot_general"(%38, %39) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>}> : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
    %42 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x4xf32>
    %43 = "stablehlo.divide"(%41, %42) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %44 = "func.call"(%arg14, %43, %9) <{callee = @_where}> : (tensor<1x4x4xi1>, tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
    %45 = "stablehlo.reduce"(%44, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %102 = "stablehlo.maximum"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%102) : (tensor<f32>) -> ()
    }) : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %46 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4xf32>
    %47 = "stablehlo.maximum"(%46, %45) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
    %50 = "stablehlo.subtract"(%44, %49) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %51 = "stablehlo.exponential"(%50) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %52 = "stablehlo.reduce"(%51, %13) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %101 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%101) : (tensor<f32>) -> ()
    }) : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
    %55 = "stablehlo.divide"(%51, %54) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    %56 = "stablehlo.dot_general"(%55, %40) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %57 = "stablehlo.dot_general"(%56, %arg10) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
    %58 = "stablehlo.add"(%arg13, %57) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %59 = "stablehlo.reduce"(%58, %13) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %100 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%100) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
    %61 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x1xf32>
    %62 = "stablehlo.divide"(%60, %61) : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
    %64 = "stablehlo.subtract"(%58, %63) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %65 = "stablehlo.multiply"(%64, %64) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %66 = "stablehlo.reduce"(%65, %13) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %99 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%99) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
    %68 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x1xf32>
    %69 = "stablehlo.divide"(%67, %68) : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %70 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
    %71 = "stablehlo.subtract"(%58, %70) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %72 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x1xf32>
    %73 = "stablehlo.add"(%69, %72) : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %74 = "stablehlo.rsqrt"(%73) : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
    %76 = "stablehlo.multiply"(%71, %75) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %77 = "stablehlo.broadcast_in_dim"(%arg6) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %78 = "stablehlo.broadcast_in_dim"(%77) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x4x8xf32>
    %79 = "stablehlo.multiply"(%76, %78) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %80 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %81 = "stablehlo.broadcast_in_dim"(%80) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x4x8xf32>
    %82 = "stablehlo.add"(%79, %81) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %83 = "stablehlo.dot_general"(%82, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    %84 = "stablehlo.multiply"(%83, %83) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %85 = "stablehlo.multiply"(%84, %83) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %86 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %87 = "stablehlo.multiply"(%86, %85) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %88 = "stablehlo.add"(%83, %87) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %89 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %90 = "stablehlo.multiply"(%89, %88) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %91 = "stablehlo.tanh"(%90) : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %92 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %93 = "stablehlo.add"(%92, %91) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %94 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x16xf32>
    %95 = "stablehlo.multiply"(%94, %93) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %96 = "stablehlo.multiply"(%83, %95) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %97 = "stablehlo.dot_general"(%96, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
    %98 = "stablehlo.add"(%58, %97) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    "func.return"(%98) : (tensor<2x4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<1x4x4xi1>, tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<1x4x4xi1>, %arg1: tensor<2x4x4xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x4x4xi1>) -> tensor<2x4x4xi1>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x4xf32>
    %3 = "stablehlo.select"(%1, %arg1, %2) : (tensor<2x4x4xi1>, tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    "func.return"(%3) : (tensor<2x4x4xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
