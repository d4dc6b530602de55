"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4xi1>, tensor<4xui32>, tensor<4xi16>) -> (tensor<4xi1>, tensor<4xui32>, tensor<4xui8>, tensor<i32>, tensor<4xi1>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg6: tensor<4xi1>, %arg7: tensor<4xui32>, %arg8: tensor<4xi16>):
    %8 = "stablehlo.constant"() <{value = dense<1> : tensor<ui32>}> : () -> tensor<ui32>
    %9 = "stablehlo.constant"() <{value = dense<2> : tensor<ui32>}> : () -> tensor<ui32>
    %10 = "stablehlo.constant"() <{value = dense<3> : tensor<ui32>}> : () -> tensor<ui32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %12 = "stablehlo.compare"(%arg7, %11) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
    %13 = "stablehlo.and"(%arg6, %12) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    %14 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %15 = "stablehlo.shift_left"(%arg7, %14) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %16 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %17 = "stablehlo.shift_right_logical"(%arg7, %16) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %18 = "stablehlo.xor"(%15, %17) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %19 = "func.call"(%13, %18, %arg7) <{callee = @_where}> : (tensor<4xi1>, tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %20 = "stablehlo.convert"(%arg8) : (tensor<4xi16>) -> tensor<4xui8>
    %21 = "func.call"(%arg6) <{callee = @count_nonzero}> : (tensor<4xi1>) -> tensor<i32>
    %22 = "stablehlo.not"(%arg6) : (tensor<4xi1>) -> tensor<4xi1>
    "func.return"(%13, %19, %20, %21, %22) : (tensor<4xi1>, tensor<4xui32>, tensor<4xui8>, tensor<i32>, tensor<4xi1>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xi1>, tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<4xi1>, %arg4: tensor<4xui32>, %arg5: tensor<4xui32>):
    %7 = "stablehlo.select"(%arg3, %arg4, %arg5) : (tensor<4xi1>, tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    "func.return"(%7) : (tensor<4xui32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xi1>) -> tensor<i32>, sym_name = "count_nonzero", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xi1>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<4xi1>
    %3 = "stablehlo.compare"(%arg0, %2) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    %4 = "stablehlo.convert"(%3) : (tensor<4xi1>) -> tensor<4xi32>
    %5 = "stablehlo.reduce"(%4, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %6 = "stablehlo.add"(%arg1, %arg2) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%6) : (tensor<i32>) -> ()
    }) : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    "func.return"(%5) : (tensor<i32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
