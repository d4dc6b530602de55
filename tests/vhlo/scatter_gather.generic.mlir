"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<6x2xf32>, tensor<3xi32>, tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<6x2xf32>, tensor<3x2xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<6x2xf32>, %arg5: tensor<3xi32>, %arg6: tensor<3x2xf32>):
    %22 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %23 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3xi32>
    %25 = "stablehlo.compare"(%arg5, %24) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %26 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3xi32>
    %27 = "stablehlo.add"(%arg5, %26) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %28 = "stablehlo.select"(%25, %27, %arg5) : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xi32>) -> tensor<3x1xi32>
    %30 = "stablehlo.gather"(%arg4, %29) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<6x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    %31 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3xi32>
    %32 = "stablehlo.compare"(%arg5, %31) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %33 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3xi32>
    %34 = "stablehlo.add"(%arg5, %33) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %35 = "stablehlo.select"(%32, %34, %arg5) : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xi32>) -> tensor<3x1xi32>
    %37 = "stablehlo.scatter"(%arg4, %36, %arg6) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %40 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%40) : (tensor<f32>) -> ()
    }) : (tensor<6x2xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<6x2xf32>
    %38 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xi32>) -> tensor<3x1xi32>
    %39 = "func.call"(%arg4, %38) <{callee = @take_along_axis}> : (tensor<6x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    "func.return"(%30, %37, %39) : (tensor<3x2xf32>, tensor<6x2xf32>, tensor<3x2xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>, sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<6x2xf32>, %arg1: tensor<3x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %2 = "stablehlo.constant"() <{value = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
    %3 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3x1xi32>
    %6 = "stablehlo.compare"(%arg1, %5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %7 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3x1xi32>
    %8 = "stablehlo.add"(%arg1, %7) : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
    %9 = "stablehlo.select"(%6, %8, %arg1) : (tensor<3x1xi1>, tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
    %10 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3x1xi32>
    %11 = "stablehlo.compare"(%9, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<1xi32>) -> tensor<1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xi32>) -> tensor<3x1xi32>
    %14 = "stablehlo.compare"(%9, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<3x1xi1>, tensor<3x1xi1>) -> tensor<3x1xi1>
    %16 = "stablehlo.reduce"(%15, %1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %21 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%21) : (tensor<i1>) -> ()
    }) : (tensor<3x1xi1>, tensor<i1>) -> tensor<3xi1>
    %17 = "stablehlo.gather"(%arg0, %9) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<6x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
    %18 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xi1>) -> tensor<3x2xi1>
    %19 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x2xf32>
    %20 = "stablehlo.select"(%18, %17, %19) : (tensor<3x2xi1>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    "func.return"(%20) : (tensor<3x2xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
