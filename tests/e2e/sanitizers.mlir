// Index-heavy ops for tools/strata/tests/sanitizers.rs: compiled to LLVM IR,
// instrumented with AddressSanitizer and called by sanitizers.c with
// adversarial inputs.

// Rows of a 5x3 matrix at 4 start indices (clamped into [0, 4] by XLA's rules).
func.func @gather_rows(%a: tensor<5x3xf32>, %i: tensor<4x1xi32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<4x1xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// No indices at all: an empty result.
func.func @gather_none(%a: tensor<5x3xf32>, %i: tensor<0x1xi32>) -> tensor<0x3xf32> {
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<0x1xi32>) -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// Adds 4 updates into a vector of 5; out-of-bounds updates are skipped.
func.func @scatter_add(%a: tensor<5xf32>, %i: tensor<4x1xi32>, %u: tensor<4xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// Windows of 2 at one start index (clamped into [0, 3]).
func.func @dynamic_slice(%a: tensor<5xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<5xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// An empty dimension: the slice is empty too, whatever the indices.
func.func @dynamic_slice_empty(%a: tensor<0x4xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<0x2xf32> {
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [0, 2] : (tensor<0x4xf32>, tensor<i64>, tensor<i64>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

func.func @dynamic_update_slice(%a: tensor<5xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<5xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// Total order: -NaN < -1 < -0 < +0 < 3 < +NaN.
func.func @sort_total(%a: tensor<6xf32>) -> tensor<6xf32> {
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// With NaN keys, FLOAT LT is not a strict weak order: the order is
// unspecified, but the result must be a permutation of the input.
func.func @sort_float_nan(%a: tensor<64xf32>) -> tensor<64xf32> {
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<64xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func @sort_empty(%a: tensor<0xf32>) -> tensor<0xf32> {
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<0xf32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// Window 3, stride 2, padding 2 on both sides: windows start at -2, 0, 2, 4.
func.func @reduce_window_padded(%a: tensor<5xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = dense<[[2, 2]]> : tensor<1x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @reduce_window_empty(%a: tensor<0x3xf32>, %z: tensor<f32>) -> tensor<0x2xf32> {
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<0x3xf32>, tensor<f32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}
