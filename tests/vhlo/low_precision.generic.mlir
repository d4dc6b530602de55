"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<3x3xbf16>, tensor<3x3xf16>) -> (tensor<3x3xf32>, tensor<3x3xf16>, tensor<bf16>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3x3xbf16>, %arg1: tensor<3x3xf16>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF80> : tensor<bf16>}> : () -> tensor<bf16>
    %1 = "stablehlo.convert"(%arg0) : (tensor<3x3xbf16>) -> tensor<3x3xf16>
    %2 = "stablehlo.multiply"(%1, %arg1) : (tensor<3x3xf16>, tensor<3x3xf16>) -> tensor<3x3xf16>
    %3 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<3x3xbf16>) -> tensor<3x3xbf16>
    %4 = "stablehlo.dot_general"(%arg0, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<3x3xbf16>, tensor<3x3xbf16>) -> tensor<3x3xbf16>
    %5 = "stablehlo.convert"(%4) : (tensor<3x3xbf16>) -> tensor<3x3xf32>
    %6 = "stablehlo.convert"(%2) : (tensor<3x3xf16>) -> tensor<3x3xbf16>
    %7 = "stablehlo.add"(%6, %arg0) : (tensor<3x3xbf16>, tensor<3x3xbf16>) -> tensor<3x3xbf16>
    %8 = "stablehlo.reduce"(%7, %0) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<bf16>, %arg3: tensor<bf16>):
      %9 = "stablehlo.maximum"(%arg2, %arg3) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      "stablehlo.return"(%9) : (tensor<bf16>) -> ()
    }) : (tensor<3x3xbf16>, tensor<bf16>) -> tensor<bf16>
    "func.return"(%5, %2, %8) : (tensor<3x3xf32>, tensor<3x3xf16>, tensor<bf16>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
