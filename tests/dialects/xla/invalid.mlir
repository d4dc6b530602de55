// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier message of the xla dialect (dialects/xla/src/ops/*.rs).

// ---- elementwise.rs ----

func.func @binary_mixed_types(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op requires operands of the same element type, found f32 and i32
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @not_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.not' op does not accept element type f32
  %0 = stablehlo.not %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @shift_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.shift_left' op does not accept element type f32
  %0 = stablehlo.shift_left %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @floor_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.floor' op does not accept element type i32
  %0 = stablehlo.floor %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @remainder_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.remainder' op does not accept element type complex<f32>
  %0 = stablehlo.remainder %a, %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @unary_wrong_result(%a: tensor<4xf32>) -> tensor<2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.exponential' op inferred type tensor<4xf32> does not match result type tensor<2x2xf32>
  %0 = stablehlo.exponential %a : (tensor<4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @abs_complex_result(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.abs' op inferred type tensor<4xf32> does not match result type tensor<4xcomplex<f32>>
  %0 = stablehlo.abs %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @operand_not_tensor(%a: f32) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.negate' op operand #0 must be a tensor, found f32
  %0 = "xla.negate"(%a) : (f32) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @result_not_tensor(%a: tensor<f32>) -> f32 {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convert' op result #0 must be a tensor, found f32
  %0 = "xla.convert"(%a) : (tensor<f32>) -> f32
  return %0 : f32
}

// -----

func.func @dynamic_operand(%a: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.negate' op operand #0 has a dynamic shape, which is not supported
  %0 = stablehlo.negate %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @dynamic_result(%a: tensor<4xf32>) -> tensor<?xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convert' op result #0 has a dynamic shape, which is not supported
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

func.func @wrong_operand_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op expects 2 operands, found 3
  %0 = "xla.add"(%a, %a, %a) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_result_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.tanh' op expects 1 results, found 2
  %0:2 = "xla.tanh"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @convert_shape(%a: tensor<4xf32>) -> tensor<2x2xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convert' op requires the same shape for operand and result, found [4] and [2, 2]
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @bitcast_same_width_shape(%a: tensor<4xf32>) -> tensor<2x2xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.bitcast_convert' op requires the same shape when element widths are equal
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @bitcast_bad_ratio(%a: tensor<4xf32>) -> tensor<4x3xi8> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.bitcast_convert' op cannot bitcast tensor<4xf32> to tensor<4x3xi8>
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x3xi8>
  return %0 : tensor<4x3xi8>
}

// -----

func.func @is_finite_int(%a: tensor<4xi32>) -> tensor<4xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.is_finite' op requires a float operand, found element type i32
  %0 = stablehlo.is_finite %a : (tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @is_finite_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.is_finite' op result must be a tensor of i1 with the operand's shape
  %0 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @real_of_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.real' op requires a complex or float operand, found element type i32
  %0 = stablehlo.real %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @complex_result(%a: tensor<4xf32>) -> tensor<4xcomplex<f64>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.complex' op result must be complex<f32> with the operands' shape
  %0 = stablehlo.complex %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @select_branches(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select' op requires on_true and on_false operands of the same type
  %0 = stablehlo.select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_pred_type(%p: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select' op requires an i1 predicate, found element type i32
  %0 = stablehlo.select %p, %a, %a : tensor<4xi32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_pred_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select' op requires a scalar predicate or one of shape [4], found [2]
  %0 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_bounds(%lo: tensor<2xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.clamp' op operand #0 must be a scalar or match the operand's type
  %0 = stablehlo.clamp %lo, %a, %a : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_max_type(%a: tensor<4xf32>, %hi: tensor<f64>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.clamp' op operand #2 must be a scalar or match the operand's type
  %0 = stablehlo.clamp %a, %a, %hi : (tensor<4xf32>, tensor<4xf32>, tensor<f64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.compare' op unknown comparison direction 'GREATER'
  %0 = stablehlo.compare GREATER, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_no_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.compare' op requires attribute 'comparison_direction'
  %0 = "xla.compare"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_unknown_type(%a: tensor<4xf32>) -> tensor<4xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.compare' op unknown comparison type 'REAL'
  %0 = stablehlo.compare LT, %a, %a, REAL : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_type_mismatch(%a: tensor<4xi32>) -> tensor<4xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.compare' op comparison type FLOAT does not apply to element type i32
  %0 = stablehlo.compare LT, %a, %a, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.compare' op result must be a tensor of i1 with the operands' shape
  %0 = stablehlo.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// ---- misc.rs ----

// -----

func.func @constant_no_value() -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.constant' op requires a dense elements attribute 'value'
  %0 = "xla.constant"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_type() -> tensor<2xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.constant' op value of type tensor<2xf32> does not match result type tensor<2xf64>
  %0 = "xla.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @barrier_types(%a: tensor<2xf32>) -> tensor<2xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.optimization_barrier' op results must have the operands' types
  %0 = "xla.optimization_barrier"(%a) : (tensor<2xf32>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// ---- reduce.rs ----

// -----

func.func @reduce_odd_operands(%a: tensor<4xf32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op expects pairs of inputs and init values
  %0 = "xla.reduce"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "xla.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_result_count(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op expects 1 results, found 2
  %0:2 = "xla.reduce"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "xla.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %0#0 : tensor<f32>
}

// -----

func.func @reduce_no_dimensions(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op requires attribute 'dimensions' (array<i64: ...>)
  %0 = "xla.reduce"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "xla.return"(%x) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_bad_dimension(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op dimensions [1] must be unique and in range for rank 1
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_repeated_dimension(%a: tensor<4x2xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op dimensions [0, 0] must be unique and in range for rank 2
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_input_shapes(%a: tensor<4xf32>, %b: tensor<5xf32>, %z: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op input #1 must have the shape of input #0
  %0:2 = stablehlo.reduce(%a init: %z), (%b init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<5xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%p: tensor<f32>, %q: tensor<f32>) {
      stablehlo.return %x, %p : tensor<f32>, tensor<f32>
    }
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

func.func @reduce_init_type(%a: tensor<4xf32>, %z: tensor<f64>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op init value #0 must be a 0-d tensor of f32
  %0 = "xla.reduce"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "xla.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_result_type(%a: tensor<4x2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op inferred type tensor<2xf32> does not match result type tensor<4xf32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_no_region(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op requires a reducer region
  %0 = "xla.reduce"(%a, %z) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_region_args(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op reducer must take 2 0-d tensor arguments matching the inputs' element types
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f64>, %y: tensor<f64>) {
      stablehlo.return %x : tensor<f64>
    }
  return %0 : tensor<f32>
}

// -----

func.func @reduce_region_returns(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op reducer must return 1 0-d tensors of the inputs' element types
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      stablehlo.return %x, %y : tensor<f32>, tensor<f32>
    }
  return %0 : tensor<f32>
}

// ---- shape.rs ----

// -----

func.func @iota_no_dimension() -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.iota' op requires attribute 'iota_dimension'
  %0 = "xla.iota"() : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @iota_dimension() -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.iota' op iota_dimension 1 is out of range for rank 1
  %0 = stablehlo.iota dim = 1 : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @broadcast_elem(%a: tensor<2xf32>) -> tensor<3x2xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_in_dim' op requires the same element type for operand and result
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2xf32>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

func.func @broadcast_dims_size(%a: tensor<2xf32>) -> tensor<3x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_in_dim' op broadcast_dimensions size (2) does not match operand rank (1)
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @broadcast_dims_range(%a: tensor<2xf32>) -> tensor<3x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_in_dim' op broadcast_dimensions contains 2, out of range for result rank 2
  %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @broadcast_dims_twice(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_in_dim' op broadcast_dimensions contains 1 twice
  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 1] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @broadcast_size(%a: tensor<2xf32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_in_dim' op size 2 of operand dimension 0 is incompatible with size 4 of result dimension 1
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reshape' op cannot reshape tensor<2x3xf32> into tensor<5xf32>: element counts 6 and 5 differ or element types differ
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @transpose_rank(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.transpose' op permutation [1] must have 2 entries
  %0 = stablehlo.transpose %a, dims = [1] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_perm(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.transpose' op permutation [1, 1] is not a permutation of 0..2
  %0 = stablehlo.transpose %a, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.transpose' op inferred type tensor<3x2xf32> does not match result type tensor<2x3xf32>
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_arity(%a: tensor<2x3xf32>) -> tensor<1xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.slice' op start_indices, limit_indices and strides must each have 2 entries
  %0 = stablehlo.slice %a [0:1] : (tensor<2x3xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @slice_bounds(%a: tensor<4xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.slice' op slice [2:5] is out of bounds for dimension 0 of size 4
  %0 = stablehlo.slice %a [2:5] : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @slice_stride(%a: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.slice' op stride 0 of dimension 0 must be positive
  %0 = stablehlo.slice %a [0:2:0] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @concatenate_none() -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.concatenate' op expects at least one operand
  %0 = "xla.concatenate"() {dimension = 0 : i64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate_no_dimension(%a: tensor<2xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.concatenate' op requires attribute 'dimension'
  %0 = "xla.concatenate"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate_dimension(%a: tensor<2xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.concatenate' op dimension 1 is out of range for rank 1
  %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate_types(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.concatenate' op operand #1 must have element type and rank of operand #0
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concatenate_sizes(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.concatenate' op operand #1 has size 3 in dimension 1, expected 2
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @reverse_dims(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reverse' op dimensions [0, 0] must be unique and in range for rank 1
  %0 = stablehlo.reverse %a, dims = [0, 0] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @pad_value(%a: tensor<2xf32>, %v: tensor<1xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op padding value must be a 0-d tensor of the operand's element type
  %0 = stablehlo.pad %a, %v, low = [1], high = [1], interior = [0] : (tensor<2xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_arity(%a: tensor<2xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op padding attributes must each have 1 entries
  %0 = stablehlo.pad %a, %v, low = [1, 0], high = [1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_interior(%a: tensor<2xf32>, %v: tensor<f32>) -> tensor<1xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op interior padding -1 of dimension 0 must be non-negative
  %0 = stablehlo.pad %a, %v, low = [0], high = [0], interior = [-1] : (tensor<2xf32>, tensor<f32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @pad_negative(%a: tensor<2xf32>, %v: tensor<f32>) -> tensor<0xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op padding makes dimension 0 negative
  %0 = stablehlo.pad %a, %v, low = [-2], high = [-1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// ---- dot.rs ----

// -----

func.func @dot_no_dims(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op requires attribute 'dot_dimension_numbers' (#stablehlo.dot<...>)
  %0 = "xla.dot_general"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_elem_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf64>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op requires operands of the same element type, found f32 and f64
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_dim_counts(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op lhs and rhs must have the same number of batching and of contracting dimensions
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_dim_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op lhs contracting dimension 2 is out of range for rank 2
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_dim_reused(%a: tensor<3x3xf32>, %b: tensor<3x3x4xf32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op lhs contracting dimension 0 is used more than once
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<3x3xf32>, tensor<3x3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @dot_sizes(%a: tensor<2x3xf32>, %b: tensor<4x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op lhs dimension 1 (size 3) and rhs dimension 0 (size 4) must have the same size
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_result_shape(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<4x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op inferred shape [2, 4] does not match result shape [4, 2]
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @dot_result_elem(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op result element type i1 is incompatible with operand element type f32
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}
