module @jit_transformer attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x48xf32>, %arg4: tensor<16x16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16x32xf32>, %arg8: tensor<32x16xf32>, %arg9: tensor<16xf32>, %arg10: tensor<16xf32>, %arg11: tensor<16x48xf32>, %arg12: tensor<16x16xf32>, %arg13: tensor<16xf32>, %arg14: tensor<16xf32>, %arg15: tensor<16x32xf32>, %arg16: tensor<32x16xf32>) -> (tensor<?x8x16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 8, 16). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16) : (tensor<i32>, tensor<?x8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x48xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x48xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<?x8x16xf32>
    return %2 : tensor<?x8x16xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16x48xf32>, %arg5: tensor<16x16xf32>, %arg6: tensor<16xf32>, %arg7: tensor<16xf32>, %arg8: tensor<16x32xf32>, %arg9: tensor<32x16xf32>, %arg10: tensor<16xf32>, %arg11: tensor<16xf32>, %arg12: tensor<16x48xf32>, %arg13: tensor<16x16xf32>, %arg14: tensor<16xf32>, %arg15: tensor<16xf32>, %arg16: tensor<16x32xf32>, %arg17: tensor<32x16xf32>) -> (tensor<?x8x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %c_6 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_7 = stablehlo.constant dense<48> : tensor<1xi32>
    %c_8 = stablehlo.constant dense<32> : tensor<1xi32>
    %c_9 = stablehlo.constant dense<0> : tensor<1xi32>
    %cst_10 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %c_11 = stablehlo.constant dense<16> : tensor<1xi32>
    %cst_12 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %c_13 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_14 = stablehlo.constant dense<8> : tensor<1xi32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst_12, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %7 = stablehlo.divide %3, %6 : tensor<?x8x1xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %7, %9, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %11 = stablehlo.subtract %arg1, %10 : tensor<?x8x16xf32>
    %12 = stablehlo.multiply %11, %11 : tensor<?x8x16xf32>
    %13 = stablehlo.reduce(%12 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %13, %15, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %cst_12, %18, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %20 = stablehlo.divide %16, %19 : tensor<?x8x1xf32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.concatenate %21, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %23 = stablehlo.dynamic_broadcast_in_dim %7, %22, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %24 = stablehlo.subtract %arg1, %23 : tensor<?x8x16xf32>
    %25 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.concatenate %25, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %27 = stablehlo.dynamic_broadcast_in_dim %cst_10, %26, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %28 = stablehlo.add %20, %27 : tensor<?x8x1xf32>
    %29 = stablehlo.sqrt %28 : tensor<?x8x1xf32>
    %30 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %31 = stablehlo.concatenate %30, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %32 = stablehlo.dynamic_broadcast_in_dim %29, %31, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %33 = stablehlo.divide %24, %32 : tensor<?x8x16xf32>
    %34 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %35 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %35, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %34, %36, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %38 = stablehlo.multiply %33, %37 : tensor<?x8x16xf32>
    %39 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %40 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.concatenate %40, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %42 = stablehlo.dynamic_broadcast_in_dim %39, %41, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %43 = stablehlo.add %38, %42 : tensor<?x8x16xf32>
    %44 = stablehlo.dot_general %43, %arg4, contracting_dims = [2] x [0] : (tensor<?x8x16xf32>, tensor<16x48xf32>) -> tensor<?x8x48xf32>
    %45 = stablehlo.concatenate %c_9, %c_9, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %46 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %47 = stablehlo.concatenate %46, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %48 = stablehlo.concatenate %c_13, %c_13, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %49 = stablehlo.real_dynamic_slice %44, %45, %47, %48 : (tensor<?x8x48xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %50 = stablehlo.concatenate %c_9, %c_9, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %51 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %52 = stablehlo.concatenate %51, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %53 = stablehlo.concatenate %c_13, %c_13, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %54 = stablehlo.real_dynamic_slice %44, %50, %52, %53 : (tensor<?x8x48xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %55 = stablehlo.concatenate %c_9, %c_9, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %56 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %57 = stablehlo.concatenate %56, %c_14, %c_7, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %58 = stablehlo.concatenate %c_13, %c_13, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %59 = stablehlo.real_dynamic_slice %44, %55, %57, %58 : (tensor<?x8x48xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %60 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %61 = stablehlo.concatenate %60, %c_14, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %62 = stablehlo.dynamic_reshape %49, %61 : (tensor<?x8x16xf32>, tensor<4xi32>) -> tensor<?x8x2x8xf32>
    %63 = stablehlo.transpose %62, dims = [0, 2, 1, 3] : (tensor<?x8x2x8xf32>) -> tensor<?x2x8x8xf32>
    %64 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %65 = stablehlo.concatenate %64, %c_14, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %66 = stablehlo.dynamic_reshape %54, %65 : (tensor<?x8x16xf32>, tensor<4xi32>) -> tensor<?x8x2x8xf32>
    %67 = stablehlo.transpose %66, dims = [0, 2, 1, 3] : (tensor<?x8x2x8xf32>) -> tensor<?x2x8x8xf32>
    %68 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %69 = stablehlo.concatenate %68, %c_14, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %70 = stablehlo.dynamic_reshape %59, %69 : (tensor<?x8x16xf32>, tensor<4xi32>) -> tensor<?x8x2x8xf32>
    %71 = stablehlo.transpose %70, dims = [0, 2, 1, 3] : (tensor<?x8x2x8xf32>) -> tensor<?x2x8x8xf32>
    %72 = stablehlo.transpose %67, dims = [0, 1, 3, 2] : (tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
    %73 = stablehlo.dot_general %63, %72, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x2x8x8xf32>, tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
    %74 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %75 = stablehlo.concatenate %74, %c_6, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %76 = stablehlo.dynamic_broadcast_in_dim %cst_5, %75, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %77 = stablehlo.divide %73, %76 : tensor<?x2x8x8xf32>
    %78 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %79 = call @tril(%arg0, %78) : (tensor<i32>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %80 = call @_where(%arg0, %79, %77, %cst_4) : (tensor<i32>, tensor<8x8xi1>, tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8x8xf32>
    %81 = stablehlo.reduce(%80 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8xf32>
    %82 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %83 = stablehlo.concatenate %82, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %84 = stablehlo.dynamic_broadcast_in_dim %cst_3, %83, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x2x8xf32>
    %85 = stablehlo.maximum %84, %81 : tensor<?x2x8xf32>
    %86 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %87 = stablehlo.concatenate %86, %c_6, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %88 = stablehlo.dynamic_broadcast_in_dim %85, %87, dims = [0, 1, 2] : (tensor<?x2x8xf32>, tensor<4xi32>) -> tensor<?x2x8x1xf32>
    %89 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %90 = stablehlo.concatenate %89, %c_6, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %91 = stablehlo.dynamic_broadcast_in_dim %88, %90, dims = [0, 1, 2, 3] : (tensor<?x2x8x1xf32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %92 = stablehlo.subtract %80, %91 : tensor<?x2x8x8xf32>
    %93 = stablehlo.exponential %92 : tensor<?x2x8x8xf32>
    %94 = stablehlo.reduce(%93 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8xf32>
    %95 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %96 = stablehlo.concatenate %95, %c_6, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %97 = stablehlo.dynamic_broadcast_in_dim %94, %96, dims = [0, 1, 2] : (tensor<?x2x8xf32>, tensor<4xi32>) -> tensor<?x2x8x1xf32>
    %98 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %99 = stablehlo.concatenate %98, %c_6, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %100 = stablehlo.dynamic_broadcast_in_dim %97, %99, dims = [0, 1, 2, 3] : (tensor<?x2x8x1xf32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %101 = stablehlo.divide %93, %100 : tensor<?x2x8x8xf32>
    %102 = stablehlo.dot_general %101, %71, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x2x8x8xf32>, tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
    %103 = stablehlo.transpose %102, dims = [0, 2, 1, 3] : (tensor<?x2x8x8xf32>) -> tensor<?x8x2x8xf32>
    %104 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %105 = stablehlo.concatenate %104, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %106 = stablehlo.dynamic_reshape %103, %105 : (tensor<?x8x2x8xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %107 = stablehlo.dot_general %106, %arg5, contracting_dims = [2] x [0] : (tensor<?x8x16xf32>, tensor<16x16xf32>) -> tensor<?x8x16xf32>
    %108 = stablehlo.add %arg1, %107 : tensor<?x8x16xf32>
    %109 = stablehlo.reduce(%108 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %110 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %111 = stablehlo.concatenate %110, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %112 = stablehlo.dynamic_broadcast_in_dim %109, %111, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %113 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %114 = stablehlo.concatenate %113, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %115 = stablehlo.dynamic_broadcast_in_dim %cst_12, %114, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %116 = stablehlo.divide %112, %115 : tensor<?x8x1xf32>
    %117 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %118 = stablehlo.concatenate %117, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %119 = stablehlo.dynamic_broadcast_in_dim %116, %118, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %120 = stablehlo.subtract %108, %119 : tensor<?x8x16xf32>
    %121 = stablehlo.multiply %120, %120 : tensor<?x8x16xf32>
    %122 = stablehlo.reduce(%121 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %123 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %124 = stablehlo.concatenate %123, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %125 = stablehlo.dynamic_broadcast_in_dim %122, %124, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %126 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %127 = stablehlo.concatenate %126, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %128 = stablehlo.dynamic_broadcast_in_dim %cst_12, %127, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %129 = stablehlo.divide %125, %128 : tensor<?x8x1xf32>
    %130 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %131 = stablehlo.concatenate %130, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %132 = stablehlo.dynamic_broadcast_in_dim %116, %131, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %133 = stablehlo.subtract %108, %132 : tensor<?x8x16xf32>
    %134 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %135 = stablehlo.concatenate %134, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %136 = stablehlo.dynamic_broadcast_in_dim %cst_10, %135, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %137 = stablehlo.add %129, %136 : tensor<?x8x1xf32>
    %138 = stablehlo.sqrt %137 : tensor<?x8x1xf32>
    %139 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %140 = stablehlo.concatenate %139, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %141 = stablehlo.dynamic_broadcast_in_dim %138, %140, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %142 = stablehlo.divide %133, %141 : tensor<?x8x16xf32>
    %143 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %144 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %145 = stablehlo.concatenate %144, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %146 = stablehlo.dynamic_broadcast_in_dim %143, %145, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %147 = stablehlo.multiply %142, %146 : tensor<?x8x16xf32>
    %148 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %149 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %150 = stablehlo.concatenate %149, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %151 = stablehlo.dynamic_broadcast_in_dim %148, %150, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %152 = stablehlo.add %147, %151 : tensor<?x8x16xf32>
    %153 = stablehlo.dot_general %152, %arg8, contracting_dims = [2] x [0] : (tensor<?x8x16xf32>, tensor<16x32xf32>) -> tensor<?x8x32xf32>
    %154 = stablehlo.multiply %153, %153 : tensor<?x8x32xf32>
    %155 = stablehlo.multiply %154, %153 : tensor<?x8x32xf32>
    %156 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %157 = stablehlo.concatenate %156, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %158 = stablehlo.dynamic_broadcast_in_dim %cst_2, %157, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %159 = stablehlo.multiply %158, %155 : tensor<?x8x32xf32>
    %160 = stablehlo.add %153, %159 : tensor<?x8x32xf32>
    %161 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %162 = stablehlo.concatenate %161, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %163 = stablehlo.dynamic_broadcast_in_dim %cst_1, %162, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %164 = stablehlo.multiply %163, %160 : tensor<?x8x32xf32>
    %165 = stablehlo.tanh %164 : tensor<?x8x32xf32>
    %166 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %167 = stablehlo.concatenate %166, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %168 = stablehlo.dynamic_broadcast_in_dim %cst_0, %167, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %169 = stablehlo.add %168, %165 : tensor<?x8x32xf32>
    %170 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %171 = stablehlo.concatenate %170, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %172 = stablehlo.dynamic_broadcast_in_dim %cst, %171, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %173 = stablehlo.multiply %172, %169 : tensor<?x8x32xf32>
    %174 = stablehlo.multiply %153, %173 : tensor<?x8x32xf32>
    %175 = stablehlo.dot_general %174, %arg9, contracting_dims = [2] x [0] : (tensor<?x8x32xf32>, tensor<32x16xf32>) -> tensor<?x8x16xf32>
    %176 = stablehlo.add %108, %175 : tensor<?x8x16xf32>
    %177 = stablehlo.reduce(%176 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %178 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %179 = stablehlo.concatenate %178, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %180 = stablehlo.dynamic_broadcast_in_dim %177, %179, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %181 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %182 = stablehlo.concatenate %181, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %183 = stablehlo.dynamic_broadcast_in_dim %cst_12, %182, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %184 = stablehlo.divide %180, %183 : tensor<?x8x1xf32>
    %185 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %186 = stablehlo.concatenate %185, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %187 = stablehlo.dynamic_broadcast_in_dim %184, %186, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %188 = stablehlo.subtract %176, %187 : tensor<?x8x16xf32>
    %189 = stablehlo.multiply %188, %188 : tensor<?x8x16xf32>
    %190 = stablehlo.reduce(%189 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %191 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %192 = stablehlo.concatenate %191, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %193 = stablehlo.dynamic_broadcast_in_dim %190, %192, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %194 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %195 = stablehlo.concatenate %194, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %196 = stablehlo.dynamic_broadcast_in_dim %cst_12, %195, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %197 = stablehlo.divide %193, %196 : tensor<?x8x1xf32>
    %198 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %199 = stablehlo.concatenate %198, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %200 = stablehlo.dynamic_broadcast_in_dim %184, %199, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %201 = stablehlo.subtract %176, %200 : tensor<?x8x16xf32>
    %202 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %203 = stablehlo.concatenate %202, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %204 = stablehlo.dynamic_broadcast_in_dim %cst_10, %203, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %205 = stablehlo.add %197, %204 : tensor<?x8x1xf32>
    %206 = stablehlo.sqrt %205 : tensor<?x8x1xf32>
    %207 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %208 = stablehlo.concatenate %207, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %209 = stablehlo.dynamic_broadcast_in_dim %206, %208, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %210 = stablehlo.divide %201, %209 : tensor<?x8x16xf32>
    %211 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %212 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %213 = stablehlo.concatenate %212, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %214 = stablehlo.dynamic_broadcast_in_dim %211, %213, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %215 = stablehlo.multiply %210, %214 : tensor<?x8x16xf32>
    %216 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %217 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %218 = stablehlo.concatenate %217, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %219 = stablehlo.dynamic_broadcast_in_dim %216, %218, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %220 = stablehlo.add %215, %219 : tensor<?x8x16xf32>
    %221 = stablehlo.dot_general %220, %arg12, contracting_dims = [2] x [0] : (tensor<?x8x16xf32>, tensor<16x48xf32>) -> tensor<?x8x48xf32>
    %222 = stablehlo.concatenate %c_9, %c_9, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %223 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %224 = stablehlo.concatenate %223, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %225 = stablehlo.concatenate %c_13, %c_13, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %226 = stablehlo.real_dynamic_slice %221, %222, %224, %225 : (tensor<?x8x48xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %227 = stablehlo.concatenate %c_9, %c_9, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %228 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %229 = stablehlo.concatenate %228, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %230 = stablehlo.concatenate %c_13, %c_13, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %231 = stablehlo.real_dynamic_slice %221, %227, %229, %230 : (tensor<?x8x48xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %232 = stablehlo.concatenate %c_9, %c_9, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %233 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %234 = stablehlo.concatenate %233, %c_14, %c_7, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %235 = stablehlo.concatenate %c_13, %c_13, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %236 = stablehlo.real_dynamic_slice %221, %232, %234, %235 : (tensor<?x8x48xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %237 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %238 = stablehlo.concatenate %237, %c_14, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %239 = stablehlo.dynamic_reshape %226, %238 : (tensor<?x8x16xf32>, tensor<4xi32>) -> tensor<?x8x2x8xf32>
    %240 = stablehlo.transpose %239, dims = [0, 2, 1, 3] : (tensor<?x8x2x8xf32>) -> tensor<?x2x8x8xf32>
    %241 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %242 = stablehlo.concatenate %241, %c_14, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %243 = stablehlo.dynamic_reshape %231, %242 : (tensor<?x8x16xf32>, tensor<4xi32>) -> tensor<?x8x2x8xf32>
    %244 = stablehlo.transpose %243, dims = [0, 2, 1, 3] : (tensor<?x8x2x8xf32>) -> tensor<?x2x8x8xf32>
    %245 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %246 = stablehlo.concatenate %245, %c_14, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %247 = stablehlo.dynamic_reshape %236, %246 : (tensor<?x8x16xf32>, tensor<4xi32>) -> tensor<?x8x2x8xf32>
    %248 = stablehlo.transpose %247, dims = [0, 2, 1, 3] : (tensor<?x8x2x8xf32>) -> tensor<?x2x8x8xf32>
    %249 = stablehlo.transpose %244, dims = [0, 1, 3, 2] : (tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
    %250 = stablehlo.dot_general %240, %249, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x2x8x8xf32>, tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
    %251 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %252 = stablehlo.concatenate %251, %c_6, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %253 = stablehlo.dynamic_broadcast_in_dim %cst_5, %252, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %254 = stablehlo.divide %250, %253 : tensor<?x2x8x8xf32>
    %255 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %256 = call @tril(%arg0, %255) : (tensor<i32>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %257 = call @_where(%arg0, %256, %254, %cst_4) : (tensor<i32>, tensor<8x8xi1>, tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8x8xf32>
    %258 = stablehlo.reduce(%257 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8xf32>
    %259 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %260 = stablehlo.concatenate %259, %c_6, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %261 = stablehlo.dynamic_broadcast_in_dim %cst_3, %260, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x2x8xf32>
    %262 = stablehlo.maximum %261, %258 : tensor<?x2x8xf32>
    %263 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %264 = stablehlo.concatenate %263, %c_6, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %265 = stablehlo.dynamic_broadcast_in_dim %262, %264, dims = [0, 1, 2] : (tensor<?x2x8xf32>, tensor<4xi32>) -> tensor<?x2x8x1xf32>
    %266 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %267 = stablehlo.concatenate %266, %c_6, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %268 = stablehlo.dynamic_broadcast_in_dim %265, %267, dims = [0, 1, 2, 3] : (tensor<?x2x8x1xf32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %269 = stablehlo.subtract %257, %268 : tensor<?x2x8x8xf32>
    %270 = stablehlo.exponential %269 : tensor<?x2x8x8xf32>
    %271 = stablehlo.reduce(%270 init: %cst_15) applies stablehlo.add across dimensions = [3] : (tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8xf32>
    %272 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %273 = stablehlo.concatenate %272, %c_6, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %274 = stablehlo.dynamic_broadcast_in_dim %271, %273, dims = [0, 1, 2] : (tensor<?x2x8xf32>, tensor<4xi32>) -> tensor<?x2x8x1xf32>
    %275 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %276 = stablehlo.concatenate %275, %c_6, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %277 = stablehlo.dynamic_broadcast_in_dim %274, %276, dims = [0, 1, 2, 3] : (tensor<?x2x8x1xf32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %278 = stablehlo.divide %270, %277 : tensor<?x2x8x8xf32>
    %279 = stablehlo.dot_general %278, %248, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x2x8x8xf32>, tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
    %280 = stablehlo.transpose %279, dims = [0, 2, 1, 3] : (tensor<?x2x8x8xf32>) -> tensor<?x8x2x8xf32>
    %281 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %282 = stablehlo.concatenate %281, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %283 = stablehlo.dynamic_reshape %280, %282 : (tensor<?x8x2x8xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %284 = stablehlo.dot_general %283, %arg13, contracting_dims = [2] x [0] : (tensor<?x8x16xf32>, tensor<16x16xf32>) -> tensor<?x8x16xf32>
    %285 = stablehlo.add %176, %284 : tensor<?x8x16xf32>
    %286 = stablehlo.reduce(%285 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %287 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %288 = stablehlo.concatenate %287, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %289 = stablehlo.dynamic_broadcast_in_dim %286, %288, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %290 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %291 = stablehlo.concatenate %290, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %292 = stablehlo.dynamic_broadcast_in_dim %cst_12, %291, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %293 = stablehlo.divide %289, %292 : tensor<?x8x1xf32>
    %294 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %295 = stablehlo.concatenate %294, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %296 = stablehlo.dynamic_broadcast_in_dim %293, %295, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %297 = stablehlo.subtract %285, %296 : tensor<?x8x16xf32>
    %298 = stablehlo.multiply %297, %297 : tensor<?x8x16xf32>
    %299 = stablehlo.reduce(%298 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8xf32>
    %300 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %301 = stablehlo.concatenate %300, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %302 = stablehlo.dynamic_broadcast_in_dim %299, %301, dims = [0, 1] : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %303 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %304 = stablehlo.concatenate %303, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %305 = stablehlo.dynamic_broadcast_in_dim %cst_12, %304, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %306 = stablehlo.divide %302, %305 : tensor<?x8x1xf32>
    %307 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %308 = stablehlo.concatenate %307, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %309 = stablehlo.dynamic_broadcast_in_dim %293, %308, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %310 = stablehlo.subtract %285, %309 : tensor<?x8x16xf32>
    %311 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %312 = stablehlo.concatenate %311, %c_14, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %313 = stablehlo.dynamic_broadcast_in_dim %cst_10, %312, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x1xf32>
    %314 = stablehlo.add %306, %313 : tensor<?x8x1xf32>
    %315 = stablehlo.sqrt %314 : tensor<?x8x1xf32>
    %316 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %317 = stablehlo.concatenate %316, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %318 = stablehlo.dynamic_broadcast_in_dim %315, %317, dims = [0, 1, 2] : (tensor<?x8x1xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %319 = stablehlo.divide %310, %318 : tensor<?x8x16xf32>
    %320 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %321 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %322 = stablehlo.concatenate %321, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %323 = stablehlo.dynamic_broadcast_in_dim %320, %322, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %324 = stablehlo.multiply %319, %323 : tensor<?x8x16xf32>
    %325 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %326 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %327 = stablehlo.concatenate %326, %c_14, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %328 = stablehlo.dynamic_broadcast_in_dim %325, %327, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<?x8x16xf32>
    %329 = stablehlo.add %324, %328 : tensor<?x8x16xf32>
    %330 = stablehlo.dot_general %329, %arg16, contracting_dims = [2] x [0] : (tensor<?x8x16xf32>, tensor<16x32xf32>) -> tensor<?x8x32xf32>
    %331 = stablehlo.multiply %330, %330 : tensor<?x8x32xf32>
    %332 = stablehlo.multiply %331, %330 : tensor<?x8x32xf32>
    %333 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %334 = stablehlo.concatenate %333, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %335 = stablehlo.dynamic_broadcast_in_dim %cst_2, %334, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %336 = stablehlo.multiply %335, %332 : tensor<?x8x32xf32>
    %337 = stablehlo.add %330, %336 : tensor<?x8x32xf32>
    %338 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %339 = stablehlo.concatenate %338, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %340 = stablehlo.dynamic_broadcast_in_dim %cst_1, %339, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %341 = stablehlo.multiply %340, %337 : tensor<?x8x32xf32>
    %342 = stablehlo.tanh %341 : tensor<?x8x32xf32>
    %343 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %344 = stablehlo.concatenate %343, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %345 = stablehlo.dynamic_broadcast_in_dim %cst_0, %344, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %346 = stablehlo.add %345, %342 : tensor<?x8x32xf32>
    %347 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %348 = stablehlo.concatenate %347, %c_14, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %349 = stablehlo.dynamic_broadcast_in_dim %cst, %348, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x8x32xf32>
    %350 = stablehlo.multiply %349, %346 : tensor<?x8x32xf32>
    %351 = stablehlo.multiply %330, %350 : tensor<?x8x32xf32>
    %352 = stablehlo.dot_general %351, %arg17, contracting_dims = [2] x [0] : (tensor<?x8x32xf32>, tensor<32x16xf32>) -> tensor<?x8x16xf32>
    %353 = stablehlo.add %285, %352 : tensor<?x8x16xf32>
    return %353 : tensor<?x8x16xf32>
  }
  func.func private @tril(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg1, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<8x8xi1>, %arg2: tensor<?x2x8x8xf32>, %arg3: tensor<f32>) -> tensor<?x2x8x8xf32> {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %0 = stablehlo.convert %arg3 : tensor<f32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_0, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [2, 3] : (tensor<8x8xi1>, tensor<4xi32>) -> tensor<?x2x8x8xi1>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_0, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %0, %5, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x2x8x8xf32>
    %7 = stablehlo.select %3, %arg2, %6 : tensor<?x2x8x8xi1>, tensor<?x2x8x8xf32>
    return %7 : tensor<?x2x8x8xf32>
  }
}
