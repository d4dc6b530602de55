module @jit_scat attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x8xf32>) -> (tensor<?x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 8). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x8xf32>) -> tensor<?x10xf32>
    return %2 : tensor<?x10xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>) -> (tensor<?x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %c_0 = stablehlo.constant dense<6> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %c_5 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
    %c_7 = stablehlo.constant dense<[6, 2]> : tensor<2xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<1xi32>
    %0 = stablehlo.concatenate %c_9, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.real_dynamic_slice %arg1, %0, %2, %3 : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %cst, %6, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<?x2xf32>
    %9 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %10 = stablehlo.compare LT, %c_6, %9, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %11 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %12 = stablehlo.add %c_6, %11 : tensor<2xi32>
    %13 = stablehlo.select %10, %12, %c_6 : tensor<2xi1>, tensor<2xi32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %15 = "stablehlo.scatter"(%arg1, %14, %8) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<?x8xf32>, tensor<2x1xi32>, tensor<?x2xf32>) -> tensor<?x8xf32>
    %16 = call @argsort(%arg0, %arg1) : (tensor<i32>, tensor<?x8xf32>) -> tensor<?x8xi32>
    %17 = stablehlo.concatenate %c_9, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = stablehlo.real_dynamic_slice %16, %17, %19, %20 : (tensor<?x8xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xi32>
    %22 = stablehlo.concatenate %c_9, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %26 = stablehlo.real_dynamic_slice %arg1, %22, %24, %25 : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %c_8, %28, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x2xi32>
    %30 = stablehlo.compare LT, %21, %29, SIGNED : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi1>
    %31 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %c_2, %32, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x2xi32>
    %34 = stablehlo.add %21, %33 : tensor<?x2xi32>
    %35 = stablehlo.select %30, %34, %21 : tensor<?x2xi1>, tensor<?x2xi32>
    %36 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %37 = stablehlo.concatenate %36, %c_5, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %38 = stablehlo.dynamic_broadcast_in_dim %35, %37, dims = [0, 1] : (tensor<?x2xi32>, tensor<3xi32>) -> tensor<?x2x1xi32>
    %39 = "stablehlo.scatter"(%arg1, %38, %26) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %78 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %78 : tensor<f32>
    }) : (tensor<?x8xf32>, tensor<?x2x1xi32>, tensor<?x2xf32>) -> tensor<?x8xf32>
    %40 = stablehlo.add %15, %39 : tensor<?x8xf32>
    %41 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %42 = stablehlo.compare LT, %c_7, %41, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %43 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %44 = stablehlo.add %c_7, %43 : tensor<2xi32>
    %45 = stablehlo.select %42, %44, %c_7 : tensor<2xi1>, tensor<2xi32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %47 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %48 = stablehlo.concatenate %47, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %49 = "stablehlo.dynamic_gather"(%arg1, %46, %48) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x8xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %50 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %51 = stablehlo.concatenate %50, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %52 = stablehlo.dynamic_broadcast_in_dim %c_8, %51, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x2xi32>
    %53 = stablehlo.compare LT, %21, %52, SIGNED : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi1>
    %54 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %55 = stablehlo.concatenate %54, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %56 = stablehlo.dynamic_broadcast_in_dim %c_2, %55, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x2xi32>
    %57 = stablehlo.add %21, %56 : tensor<?x2xi32>
    %58 = stablehlo.select %53, %57, %21 : tensor<?x2xi1>, tensor<?x2xi32>
    %59 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %60 = stablehlo.concatenate %59, %c_5, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %61 = stablehlo.dynamic_broadcast_in_dim %58, %60, dims = [0, 1] : (tensor<?x2xi32>, tensor<3xi32>) -> tensor<?x2x1xi32>
    %62 = "stablehlo.gather"(%arg1, %61) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<?x8xf32>, tensor<?x2x1xi32>) -> tensor<?x2xf32>
    %63 = stablehlo.multiply %49, %62 : tensor<?x2xf32>
    %64 = stablehlo.iota dim = 0 : tensor<2xi32>
    %65 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %66 = stablehlo.multiply %65, %64 : tensor<2xi32>
    %67 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %68 = stablehlo.add %67, %66 : tensor<2xi32>
    %69 = stablehlo.reverse %68, dims = [0] : tensor<2xi32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %71 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %72 = stablehlo.concatenate %71, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %73 = "stablehlo.dynamic_gather"(%21, %70, %72) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = true}> : (tensor<?x2xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x2xi32>
    %74 = stablehlo.reverse %73, dims = [1] : tensor<?x2xi32>
    %75 = call @take_along_axis(%arg0, %arg1, %74) : (tensor<i32>, tensor<?x8xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>
    %76 = stablehlo.add %63, %75 : tensor<?x2xf32>
    %77 = stablehlo.concatenate %40, %76, dim = 1 : (tensor<?x8xf32>, tensor<?x2xf32>) -> tensor<?x10xf32>
    return %77 : tensor<?x10xf32>
  }
  func.func private @argsort(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>) -> tensor<?x8xi32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_iota %1, dim = 1 : (tensor<2xi32>) -> tensor<?x8xi32>
    %3:2 = "stablehlo.sort"(%arg1, %2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %4 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.select %4, %cst_0, %arg2 : tensor<i1>, tensor<f32>
      %6 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %7 = stablehlo.select %6, %cst, %5 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare EQ, %arg3, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = stablehlo.select %8, %cst_0, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = stablehlo.select %10, %cst, %9 : tensor<i1>, tensor<f32>
      %12 = stablehlo.compare LT, %7, %11, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    }) : (tensor<?x8xf32>, tensor<?x8xi32>) -> (tensor<?x8xf32>, tensor<?x8xi32>)
    return %3#1 : tensor<?x8xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>, %arg2: tensor<?x2xi32>) -> tensor<?x2xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<false> : tensor<1xi1>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %c_4, %1, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x2xi32>
    %3 = stablehlo.compare LT, %arg2, %2, SIGNED : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi1>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %c_2, %5, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x2xi32>
    %7 = stablehlo.add %arg2, %6 : tensor<?x2xi32>
    %8 = stablehlo.select %3, %7, %arg2 : tensor<?x2xi1>, tensor<?x2xi32>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_3, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %11 = stablehlo.dynamic_reshape %8, %10 : (tensor<?x2xi32>, tensor<3xi32>) -> tensor<?x2x1xi32>
    %12 = stablehlo.convert %arg0 : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.add %c_1, %16 : tensor<1xi32>
    %18 = stablehlo.select %c_0, %17, %c_1 : tensor<1xi1>, tensor<1xi32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<1xi32>) -> tensor<1x1xi32>
    %20 = "stablehlo.gather"(%15, %19) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<2xi32>, tensor<1x1xi32>) -> tensor<1xi32>
    %21 = stablehlo.subtract %20, %c_1 : tensor<1xi32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_3, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %c_4, %23, dims = [] : (tensor<i32>, tensor<3xi32>) -> tensor<?x2x1xi32>
    %25 = stablehlo.compare GE, %11, %24, SIGNED : (tensor<?x2x1xi32>, tensor<?x2x1xi32>) -> tensor<?x2x1xi1>
    %26 = stablehlo.broadcast_in_dim %21, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_3, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %26, %28, dims = [0, 1, 2] : (tensor<1x1x1xi32>, tensor<3xi32>) -> tensor<?x2x1xi32>
    %30 = stablehlo.compare LE, %11, %29, SIGNED : (tensor<?x2x1xi32>, tensor<?x2x1xi32>) -> tensor<?x2x1xi1>
    %31 = stablehlo.and %25, %30 : tensor<?x2x1xi1>
    %32 = stablehlo.reduce(%31 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<?x2x1xi1>, tensor<i1>) -> tensor<?x2xi1>
    %33 = "stablehlo.gather"(%arg1, %11) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<?x8xf32>, tensor<?x2x1xi32>) -> tensor<?x2xf32>
    %34 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %35 = stablehlo.concatenate %34, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %36 = stablehlo.dynamic_broadcast_in_dim %cst, %35, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
    %37 = stablehlo.select %32, %33, %36 : tensor<?x2xi1>, tensor<?x2xf32>
    return %37 : tensor<?x2xf32>
  }
}
