module @jit_lin attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x4x4xf32>) -> (tensor<?x24xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4x4xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 4, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x4x4xf32>) -> tensor<?x24xf32>
    return %2 : tensor<?x24xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4x4xf32>) -> (tensor<?x24xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %1 = stablehlo.dot_general %arg1, %0, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x4x4xf32>, tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %2 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %3 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %4 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %5 = stablehlo.add %2, %4 : tensor<4x4xi32>
    %6 = stablehlo.compare EQ, %5, %3, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %7 = stablehlo.convert %6 : (tensor<4x4xi1>) -> tensor<4x4xf32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<4x4xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<4x4xf32>) -> tensor<1x4x4xf32>
    %11 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %10, %12, dims = [0, 1, 2] : (tensor<1x4x4xf32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %14 = stablehlo.add %1, %13 : tensor<?x4x4xf32>
    %15 = call @cholesky(%arg0, %14) : (tensor<i32>, tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %16 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %16, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %18 = stablehlo.dynamic_reshape %15, %17 : (tensor<?x4x4xf32>, tensor<2xi32>) -> tensor<?x16xf32>
    %19 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.concatenate %20, %c_1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %22 = "stablehlo.dynamic_gather"(%arg1, %19, %21) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 2], start_index_map = [2]>, indices_are_sorted = true}> : (tensor<?x4x4xf32>, tensor<1xi32>, tensor<3xi32>) -> tensor<?x4x1xf32>
    %23 = call @solve(%arg0, %14, %22) : (tensor<i32>, tensor<?x4x4xf32>, tensor<?x4x1xf32>) -> tensor<?x4x1xf32>
    %24 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %25 = stablehlo.concatenate %24, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %26 = stablehlo.dynamic_reshape %23, %25 : (tensor<?x4x1xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    %27:2 = call @eigh(%arg0, %14) : (tensor<i32>, tensor<?x4x4xf32>) -> (tensor<?x4xf32>, tensor<?x4x4xf32>)
    %28 = stablehlo.concatenate %18, %26, %27#0, dim = 1 : (tensor<?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x24xf32>
    return %28 : tensor<?x24xf32>
  }
  func.func private @cholesky(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4x4xf32>) -> tensor<?x4x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<4> : tensor<1xi32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %1 = stablehlo.add %arg1, %0 : tensor<?x4x4xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %cst_3, %3, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %5 = stablehlo.divide %1, %4 : tensor<?x4x4xf32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9:2 = stablehlo.custom_call @lapack_spotrf_ffi(%5, %7, %8) {indices_of_shape_operands = dense<[1, 2]> : tensor<2xi64>, mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<?x4x4xf32>, tensor<3xi32>, tensor<1xi32>) -> (tensor<?x4x4xf32>, tensor<?xi32>)
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %c_1, %10, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %12 = stablehlo.compare EQ, %9#1, %11, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %12, %14, dims = [0] : (tensor<?xi1>, tensor<3xi32>) -> tensor<?x1x1xi1>
    %16 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %16, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %18 = stablehlo.dynamic_broadcast_in_dim %cst_0, %17, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %15, %20, dims = [0, 1, 2] : (tensor<?x1x1xi1>, tensor<3xi32>) -> tensor<?x4x4xi1>
    %22 = stablehlo.select %21, %9#0, %18 : tensor<?x4x4xi1>, tensor<?x4x4xf32>
    %23 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %24 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %25 = stablehlo.add %23, %24 : tensor<4x4xi32>
    %26 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %27 = stablehlo.compare GE, %25, %26, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %28 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.concatenate %28, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %30 = stablehlo.dynamic_broadcast_in_dim %27, %29, dims = [1, 2] : (tensor<4x4xi1>, tensor<3xi32>) -> tensor<?x4x4xi1>
    %31 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %cst, %32, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %34 = stablehlo.select %30, %22, %33 : tensor<?x4x4xi1>, tensor<?x4x4xf32>
    return %34 : tensor<?x4x4xf32>
  }
  func.func private @solve(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4x4xf32>, %arg2: tensor<?x4x1xf32>) -> tensor<?x4x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %c_2 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<4> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5:3 = stablehlo.custom_call @lapack_sgetrf_ffi(%arg1, %1, %3, %4) {indices_of_shape_operands = dense<[1, 2, 3]> : tensor<3xi64>, mhlo.backend_config = {}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<?x4x4xf32>, tensor<3xi32>, tensor<2xi32>, tensor<1xi32>) -> (tensor<?x4x4xf32>, tensor<?x4xi32>, tensor<?xi32>)
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %c_1, %7, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x4xi32>
    %9 = stablehlo.subtract %5#1, %8 : tensor<?x4xi32>
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %c_0, %10, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %12 = stablehlo.compare GE, %5#2, %11, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %12, %14, dims = [0] : (tensor<?xi1>, tensor<3xi32>) -> tensor<?x1x1xi1>
    %16 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %16, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %18 = stablehlo.dynamic_broadcast_in_dim %cst, %17, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %15, %20, dims = [0, 1, 2] : (tensor<?x1x1xi1>, tensor<3xi32>) -> tensor<?x4x4xi1>
    %22 = stablehlo.select %21, %5#0, %18 : tensor<?x4x4xi1>, tensor<?x4x4xf32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.dynamic_iota %24, dim = 1 : (tensor<2xi32>) -> tensor<?x4xi32>
    %26:4 = stablehlo.while(%iterArg = %9, %iterArg_4 = %c_0, %iterArg_5 = %c_0, %iterArg_6 = %25) : tensor<?x4xi32>, tensor<i32>, tensor<i32>, tensor<?x4xi32>
    cond {
      %30 = stablehlo.compare LT, %iterArg_4, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %30 : tensor<i1>
    } do {
      %30:2 = func.call @closed_call(%arg0, %iterArg, %iterArg_5, %iterArg_6) : (tensor<i32>, tensor<?x4xi32>, tensor<i32>, tensor<?x4xi32>) -> (tensor<i32>, tensor<?x4xi32>)
      %31 = stablehlo.add %iterArg_4, %c_1 : tensor<i32>
      stablehlo.return %iterArg, %31, %30#0, %30#1 : tensor<?x4xi32>, tensor<i32>, tensor<i32>, tensor<?x4xi32>
    }
    %27 = stablehlo.transpose %arg2, dims = [0, 2, 1] : (tensor<?x4x1xf32>) -> tensor<?x1x4xf32>
    %28 = call @_lu_solve(%arg0, %22, %26#3, %27) : (tensor<i32>, tensor<?x4x4xf32>, tensor<?x4xi32>, tensor<?x1x4xf32>) -> tensor<?x1x4xf32>
    %29 = stablehlo.transpose %28, dims = [0, 2, 1] : (tensor<?x1x4xf32>) -> tensor<?x4x1xf32>
    return %29 : tensor<?x4x1xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4xi32>, %arg2: tensor<i32>, %arg3: tensor<?x4xi32>) -> (tensor<i32>, tensor<?x4xi32>) {
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c_2 : tensor<i32>
    %1 = stablehlo.compare LT, %arg2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %arg2 : tensor<i32>
    %3 = stablehlo.add %2, %c_0 : tensor<i32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<i1>, tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = "stablehlo.dynamic_gather"(%arg1, %5, %7) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<?x4xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.dynamic_reshape %8, %9 : (tensor<?x1xi32>, tensor<1xi32>) -> tensor<?xi32>
    %11 = stablehlo.compare LT, %arg2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %12 = stablehlo.convert %arg2 : tensor<i32>
    %13 = stablehlo.add %12, %c_0 : tensor<i32>
    %14 = stablehlo.select %11, %13, %arg2 : tensor<i1>, tensor<i32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %16 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %16, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %18 = "stablehlo.dynamic_gather"(%arg3, %15, %17) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<?x4xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.dynamic_reshape %18, %19 : (tensor<?x1xi32>, tensor<1xi32>) -> tensor<?xi32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.dynamic_broadcast_in_dim %c_1, %21, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %23 = stablehlo.compare LT, %10, %22, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %24 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %c_0, %24, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %26 = stablehlo.add %10, %25 : tensor<?xi32>
    %27 = stablehlo.select %23, %26, %10 : tensor<?xi1>, tensor<?xi32>
    %28 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.concatenate %28, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %30 = stablehlo.dynamic_broadcast_in_dim %27, %29, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %31 = "stablehlo.gather"(%arg3, %30) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1>}> : (tensor<?x4xi32>, tensor<?x1xi32>) -> tensor<?x1xi32>
    %32 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.dynamic_reshape %31, %32 : (tensor<?x1xi32>, tensor<1xi32>) -> tensor<?xi32>
    %34 = stablehlo.compare LT, %arg2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %35 = stablehlo.add %arg2, %c_0 : tensor<i32>
    %36 = stablehlo.select %34, %35, %arg2 : tensor<i1>, tensor<i32>
    %37 = stablehlo.convert %36 : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %39 = "stablehlo.scatter"(%arg3, %38, %33) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      stablehlo.return %arg5 : tensor<i32>
    }) : (tensor<?x4xi32>, tensor<1xi32>, tensor<?xi32>) -> tensor<?x4xi32>
    %40 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.dynamic_broadcast_in_dim %c_1, %40, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %42 = stablehlo.compare LT, %10, %41, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %43 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %44 = stablehlo.dynamic_broadcast_in_dim %c_0, %43, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %45 = stablehlo.add %10, %44 : tensor<?xi32>
    %46 = stablehlo.select %42, %45, %10 : tensor<?xi1>, tensor<?xi32>
    %47 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %48 = stablehlo.concatenate %47, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %49 = stablehlo.dynamic_broadcast_in_dim %46, %48, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %50 = "stablehlo.scatter"(%39, %49, %20) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      stablehlo.return %arg5 : tensor<i32>
    }) : (tensor<?x4xi32>, tensor<?x1xi32>, tensor<?xi32>) -> tensor<?x4xi32>
    return %0, %50 : tensor<i32>, tensor<?x4xi32>
  }
  func.func private @_lu_solve(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4x4xf32>, %arg2: tensor<?x4xi32>, %arg3: tensor<?x1x4xf32>) -> tensor<?x1x4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<4> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_1, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %arg3, %1, dims = [0, 1, 2] : (tensor<?x1x4xf32>, tensor<4xi32>) -> tensor<?x1x4x1xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.concatenate %3, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %5 = stablehlo.dynamic_broadcast_in_dim %c, %4, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x4xi32>
    %6 = stablehlo.compare LT, %arg2, %5, SIGNED : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi1>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.dynamic_broadcast_in_dim %c_2, %8, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x4xi32>
    %10 = stablehlo.add %arg2, %9 : tensor<?x4xi32>
    %11 = stablehlo.select %6, %10, %arg2 : tensor<?x4xi1>, tensor<?x4xi32>
    %12 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.concatenate %12, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %14 = stablehlo.dynamic_broadcast_in_dim %11, %13, dims = [0, 1] : (tensor<?x4xi32>, tensor<3xi32>) -> tensor<?x4x1xi32>
    %15 = "stablehlo.gather"(%2, %14) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 3], collapsed_slice_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 1, 1>}> : (tensor<?x1x4x1xf32>, tensor<?x4x1xi32>) -> tensor<?x1x4x1xf32>
    %16 = stablehlo.transpose %15, dims = [0, 2, 3, 1] : (tensor<?x1x4x1xf32>) -> tensor<?x4x1x1xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %19 = stablehlo.dynamic_reshape %16, %18 : (tensor<?x4x1x1xf32>, tensor<3xi32>) -> tensor<?x4x1xf32>
    %20 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.concatenate %20, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %22 = stablehlo.custom_call @lapack_strsm_ffi(%arg1, %19, %21) {indices_of_shape_operands = dense<2> : tensor<1xi64>, mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<?x4x4xf32>, tensor<?x4x1xf32>, tensor<3xi32>) -> tensor<?x4x1xf32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_0, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %25 = stablehlo.dynamic_reshape %22, %24 : (tensor<?x4x1xf32>, tensor<4xi32>) -> tensor<?x4x1x1xf32>
    %26 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %26, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %28 = stablehlo.dynamic_reshape %25, %27 : (tensor<?x4x1x1xf32>, tensor<3xi32>) -> tensor<?x4x1xf32>
    %29 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %29, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %31 = stablehlo.custom_call @lapack_strsm_ffi(%arg1, %28, %30) {indices_of_shape_operands = dense<2> : tensor<1xi64>, mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<?x4x4xf32>, tensor<?x4x1xf32>, tensor<3xi32>) -> tensor<?x4x1xf32>
    %32 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.concatenate %32, %c_0, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %34 = stablehlo.dynamic_reshape %31, %33 : (tensor<?x4x1xf32>, tensor<4xi32>) -> tensor<?x4x1x1xf32>
    %35 = stablehlo.transpose %34, dims = [0, 3, 1, 2] : (tensor<?x4x1x1xf32>) -> tensor<?x1x4x1xf32>
    %36 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %37 = stablehlo.concatenate %36, %c_1, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %38 = stablehlo.dynamic_reshape %35, %37 : (tensor<?x1x4x1xf32>, tensor<3xi32>) -> tensor<?x1x4xf32>
    return %38 : tensor<?x1x4xf32>
  }
  func.func private @eigh(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x4x4xf32>) -> (tensor<?x4xf32>, tensor<?x4x4xf32>) {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %1 = stablehlo.add %arg1, %0 : tensor<?x4x4xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %cst_2, %3, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %5 = stablehlo.divide %1, %4 : tensor<?x4x4xf32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%5, %7, %9, %10) {indices_of_shape_operands = dense<[1, 2, 3]> : tensor<3xi64>, mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<?x4x4xf32>, tensor<3xi32>, tensor<2xi32>, tensor<1xi32>) -> (tensor<?x4x4xf32>, tensor<?x4xf32>, tensor<?xi32>)
    %12 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_0, %12, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %14 = stablehlo.compare EQ, %11#2, %13, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %15 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %16 = stablehlo.concatenate %15, %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %17 = stablehlo.dynamic_broadcast_in_dim %14, %16, dims = [0] : (tensor<?xi1>, tensor<3xi32>) -> tensor<?x1x1xi1>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %cst, %19, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x4x4xf32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.concatenate %21, %c_1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %23 = stablehlo.dynamic_broadcast_in_dim %17, %22, dims = [0, 1, 2] : (tensor<?x1x1xi1>, tensor<3xi32>) -> tensor<?x4x4xi1>
    %24 = stablehlo.select %23, %11#0, %20 : tensor<?x4x4xi1>, tensor<?x4x4xf32>
    %25 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.concatenate %25, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %27 = stablehlo.dynamic_broadcast_in_dim %14, %26, dims = [0] : (tensor<?xi1>, tensor<2xi32>) -> tensor<?x1xi1>
    %28 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.concatenate %28, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %30 = stablehlo.dynamic_broadcast_in_dim %cst, %29, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
    %31 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %27, %32, dims = [0, 1] : (tensor<?x1xi1>, tensor<2xi32>) -> tensor<?x4xi1>
    %34 = stablehlo.select %33, %11#1, %30 : tensor<?x4xi1>, tensor<?x4xf32>
    return %34, %24 : tensor<?x4xf32>, tensor<?x4x4xf32>
  }
}
