"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<?x4xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<?xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<?x4xf32>, %arg6: tensor<4x3xf32>):
    %13 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.get_dimension_size"(%arg5) <{dimension = 0 : i64}> : (tensor<?x4xf32>) -> tensor<i32>
    %15 = "stablehlo.compare"(%14, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.custom_call"(%15, %14) <{api_version = 2 : i32, call_target_name = "shape_assertion", has_side_effect = true}> {error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details."} : (tensor<i1>, tensor<i32>) -> ()
    %16:3 = "func.call"(%14, %arg5, %arg6) <{callee = @_wrapped_jax_export_main}> : (tensor<i32>, tensor<?x4xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<?xf32>)
    "func.return"(%16#0, %16#1, %16#2) : (tensor<3xf32>, tensor<f32>, tensor<?xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = "b"}, {}, {}], function_type = (tensor<i32>, tensor<?x4xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<?xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "_wrapped_jax_export_main", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<?x4xf32>, %arg2: tensor<4x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
    %4 = "stablehlo.tanh"(%3) : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %5 = "stablehlo.reduce"(%4, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %12 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%12) : (tensor<f32>) -> ()
    }) : (tensor<?x3xf32>, tensor<f32>) -> tensor<3xf32>
    %6 = "stablehlo.convert"(%arg0) : (tensor<i32>) -> tensor<f32>
    %7 = "stablehlo.multiply"(%6, %1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.convert"(%arg0) : (tensor<i32>) -> tensor<i32>
    %9 = "stablehlo.multiply"(%8, %0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %10 = "stablehlo.reshape"(%9) : (tensor<i32>) -> tensor<1xi32>
    %11 = "stablehlo.dynamic_reshape"(%arg1, %10) : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>
    "func.return"(%5, %7, %11) : (tensor<3xf32>, tensor<f32>, tensor<?xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
