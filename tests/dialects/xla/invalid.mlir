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

// A private function is not specialised: its `?` reaches the verifier.
func.func private @dynamic_operand(%a: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.negate' op operand #0 has a dynamic shape, which is not supported
  %0 = stablehlo.negate %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A public one's `?` argument dimension is a dimension variable (one per `?`
// dimension of each argument, unnamed: arg0_dim0) that needs a value here.
// CHECK: [[@LINE+1]]:1: error: @dynamic_argument is shape-polymorphic (dimension variables arg0_dim0): give each a value with --dim arg0_dim0=N
func.func @dynamic_argument(%a: tensor<?xf32>) -> tensor<?xf32> {
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

// Mixed real types are computed in the result's type; complex must match.
func.func @dot_elem_types(%a: tensor<2x3xf32>, %b: tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op requires operands of the same element type, found f32 and complex<f32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  return %0 : tensor<2x4xcomplex<f32>>
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

// -----

func.func @dot_rhs_dim_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dot_general' op rhs contracting dimension 2 is out of range for rank 2
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [2] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// ---- elementwise.rs (broadcast attributes of binary ops) ----

// -----

func.func @broadcast_dims_not_array(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op broadcast_dimensions must be an array<i64: ...>
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = "1"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @auto_broadcast_not_string(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op auto_broadcast must be a string
  %0 = "xla.add"(%a, %b) {auto_broadcast = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_dims_and_auto(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op broadcast_dimensions and auto_broadcast cannot be combined
  %0 = "xla.add"(%a, %b) {auto_broadcast = "numpy", broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @axis_without_pdpd(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op 'axis' is only meaningful with auto_broadcast = "pdpd"
  %0 = "xla.add"(%a, %b) {auto_broadcast = "numpy", axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @axis_not_integer(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op axis must be an integer
  %0 = "xla.add"(%a, %b) {auto_broadcast = "pdpd", axis = "x"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// ---- broadcast.rs (with elementwise.rs's "; operands are ..." suffix) ----

// -----

func.func @broadcast_dims_count(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.add' op broadcast_dimensions (0,1) must have one entry per dimension of the lower-rank operand (3) (shapes (2,3) and (3)); operands are tensor<2x3xf32> and tensor<3xf32>
  %0 = "xla.add"(%a, %b) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// ---- misc.rs (get_dimension_size, composite, tuple, get_tuple_element) ----

// -----

func.func @get_dimension_size_result(%a: tensor<4xf32>) -> tensor<i64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.get_dimension_size' op result must be a tensor<i32>
  %0 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<4xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @composite_decomposition(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.composite' op requires a 'decomposition' symbol reference
  %0 = stablehlo.composite "my.op" %a {decomposition = "f"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tuple_type(%a: tensor<4xf32>) -> tuple<tensor<4xi32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.tuple' op result must be the tuple of the operand types
  %0 = stablehlo.tuple %a : tuple<tensor<4xi32>>
  return %0 : tuple<tensor<4xi32>>
}

// -----

func.func @get_tuple_element_not_tuple(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.get_tuple_element' op operand must be a tuple
  %0 = stablehlo.get_tuple_element %a[0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @get_tuple_element_no_index(%t: tuple<tensor<4xf32>>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.get_tuple_element' op requires attribute 'index'
  %0 = "stablehlo.get_tuple_element"(%t) : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @get_tuple_element_index(%t: tuple<tensor<4xf32>>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.get_tuple_element' op index 1 does not select an element of the result's type
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<4xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// ---- misc.rs (sort) ----

// -----

func.func @sort_results(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op expects one result per operand
  %0:2 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @sort_shapes(%a: tensor<4xf32>, %b: tensor<5xi32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op operands must all have the same shape
  %0:2 = "stablehlo.sort"(%a, %b) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>, tensor<5xi32>) -> (tensor<4xf32>, tensor<5xi32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @sort_dimension(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op dimension 1 is out of range for rank 1
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_no_comparator(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op requires a comparator region
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_comparator_args(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op comparator must take 2 arguments
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>):
    %c = stablehlo.compare LT, %x, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The comparator compares elements: of the operand's type (an i32 sort
// with an f32 comparator reached the lowering: found by fuzzing).
func.func @sort_comparator_arg_types(%a: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op comparator argument 0 must be a 0-d tensor of operand 0's element type
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @sort_comparator_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.sort' op comparator must return one tensor<i1>
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// ---- misc.rs (fft) ----

// -----

func.func @fft_length_count(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.fft' op fft_length [2, 4] must have 1 to 3 entries, at most the rank
  %0 = stablehlo.fft %a, type = FFT, length = [2, 4] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @fft_unknown_type(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.fft' op unknown fft_type 'DCT' (expected FFT, IFFT, RFFT or IRFFT)
  %0 = stablehlo.fft %a, type = DCT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @fft_real_input(%a: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.fft' op FFT on f32 -> complex<f32> has the wrong element types
  %0 = stablehlo.fft %a, type = FFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

func.func @rfft_shape(%a: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.fft' op shapes [8] -> [8] do not fit RFFT with fft_length [8]
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// ---- misc.rs (map) ----

// -----

func.func @map_no_operands() -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op expects at least one operand and one result
  %0 = "stablehlo.map"() <{dimensions = array<i64: 0>}> ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_shapes(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op operands must all have the same shape
  %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_dimensions(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op dimensions [1, 0] must be [0, ..., rank - 1]
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 1, 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @map_no_computation(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op requires a computation region
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_computation_args(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op computation must take one argument per operand
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_computation_result(%a: tensor<4xf32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op computation must return one 0-d tensor of the result's element type
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// ---- reduce.rs (reduce, reduce_window) ----

// -----

// The generic verifier (compiler/ir/src/verify.rs) reports the empty block
// first; the reduce verifier then reports its own error on the same op.
func.func @reduce_empty_reducer(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+2]]:{{[0-9]+}}: error: 'xla.reduce' op has an empty block; expected a terminator
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce' op reducer region is empty
  %0 = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_window_counts(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_window' op expects N inputs, N init values and N results
  %0:2 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<3xf32>
}

// -----

func.func @reduce_window_no_window(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_window' op requires window_dimensions and a padding of shape [rank, 2]
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_strides = array<i64: 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_window_stride(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_window' op window_strides [0] must have 1 positive entries
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_window_padding(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_window' op padding is out of range
  %0 = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[281474976710657, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// ---- reduce.rs (select_and_scatter) ----

// -----

func.func @select_and_scatter_init(%a: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f64>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select_and_scatter' op init value must be a 0-d tensor of the source's element type
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_and_scatter_window_rank(%a: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select_and_scatter' op window_dimensions [2, 2] must have 1 positive entries
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_and_scatter_padding(%a: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select_and_scatter' op padding must be non-negative
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{padding = dense<[[-1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_and_scatter_source(%a: tensor<4xf32>, %s: tensor<3xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select_and_scatter' op source shape [3] does not match the windows of the operand
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_and_scatter_regions(%a: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select_and_scatter' op requires a select region and a scatter region
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// ---- shape.rs (iota, pad, broadcast_to, dynamic_slice, dynamic_update_slice) ----

// -----

func.func @iota_bool() -> tensor<3xi1> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.iota' op requires an integer, float or complex result, found element type i1
  %0 = stablehlo.iota dim = 0 : tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @pad_too_large(%a: tensor<2xf32>, %v: tensor<f32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op padding makes dimension 0 too large (281474976710658)
  %0 = stablehlo.pad %a, %v, low = [281474976710656], high = [0], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @broadcast_to_negative(%a: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_to' op target_shape [-1] must not have negative sizes
  %0 = "xla.broadcast_to"(%a) {target_shape = array<i64: -1>} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @broadcast_to_larger(%a: tensor<3x1xf32>) -> tensor<2x1x6xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_to' op cannot broadcast shape (3,1) to target shape (2,1,6) (use mode = "bidirectional" to allow a larger result)
  %0 = "xla.broadcast_to"(%a) {target_shape = array<i64: 2, 1, 6>} : (tensor<3x1xf32>) -> tensor<2x1x6xf32>
  return %0 : tensor<2x1x6xf32>
}

// -----

func.func @broadcast_to_mode(%a: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.broadcast_to' op unknown broadcast_to mode "left" (expected "numpy" or "bidirectional")
  %0 = "xla.broadcast_to"(%a) {mode = "left", target_shape = array<i64: 3>} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dynamic_slice_no_operands() -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_slice' op expects an operand, start indices and one result
  %0 = "stablehlo.dynamic_slice"() {slice_sizes = array<i64: 2>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_index_count(%a: tensor<4x5xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_slice' op expects 2 start indices (one per dimension), found 1
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_slice_index_type(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_slice' op start index #0 must be a 0-d integer tensor
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_index_types(%a: tensor<4x5xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_slice' op start indices must all have the same type
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 3] : (tensor<4x5xf32>, tensor<i32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @dynamic_slice_sizes_count(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_slice' op slice_sizes [2, 1] must have 1 entries
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [2, 1] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dynamic_slice_size(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_slice' op slice size 5 of dimension 0 must be in [0, 4]
  %0 = stablehlo.dynamic_slice %a, %i, sizes = [5] : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @dynamic_update_slice_operands(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_update_slice' op expects an operand, an update, start indices and one result
  %0 = "stablehlo.dynamic_update_slice"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic_update_slice_update_type(%a: tensor<4xf32>, %u: tensor<2xi32>, %i: tensor<i32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_update_slice' op update must have the operand's element type and rank
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<2xi32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic_update_slice_update_size(%a: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.dynamic_update_slice' op update size 5 of dimension 0 exceeds the operand's 4
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// ---- gather.rs (gather) ----

// -----

func.func @gather_float_indices(%a: tensor<5x4xf32>, %i: tensor<3x1xf32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op start_indices must be integers
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_no_dimension_numbers(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op requires 'dimension_numbers' (#stablehlo.gather<...>)
  %0 = "stablehlo.gather"(%a, %i) <{indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_slice_sizes_count(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op slice_sizes [1] must have 2 entries
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_slice_size(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op slice size 5 of dimension 1 must be in [0, 4]
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_index_vector_dim(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op index_vector_dim 3 is out of range
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_start_index_map_count(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op start_index_map [0, 1] must have 1 entries
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_collapsed_range(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op collapsed_slice_dims [2] must be unique dimensions below 2
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_batching_lengths(%a: tensor<4x10xf32>, %i: tensor<4x1x1xi32>) -> tensor<4x1xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op operand_batching_dims and start_indices_batching_dims must have the same length
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x10xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @gather_collapsed_size(%a: tensor<5x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.gather' op slice size of collapsed or batching dimension 1 must be at most 1
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// ---- gather.rs (scatter) ----

// -----

func.func @scatter_arity(%a: tensor<3xf32>, %i: tensor<6x1xi32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op expects N inputs, the scatter indices, N updates and N results
  %0 = "stablehlo.scatter"(%a, %i) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<3xf32>, tensor<6x1xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scatter_float_indices(%a: tensor<3xf32>, %i: tensor<6x1xf32>, %u: tensor<6xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op scatter_indices must be integers
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<3xf32>, tensor<6x1xf32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scatter_no_dimension_numbers(%a: tensor<3xf32>, %i: tensor<6x1xi32>, %u: tensor<6xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op requires 'scatter_dimension_numbers' (#stablehlo.scatter<...>)
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<3xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scatter_dims_to_operand_dims_count(%a: tensor<3xf32>, %i: tensor<6x1xi32>, %u: tensor<6xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op scatter_dims_to_operand_dims must have 1 entries
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<3xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scatter_batching_lengths(%a: tensor<4x10xf32>, %i: tensor<4x1x1xi32>, %u: tensor<4x1xf32>) -> tensor<4x10xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op input_batching_dims and scatter_indices_batching_dims must have the same length
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<4x10xf32>, tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// -----

func.func @scatter_update_window_dims(%a: tensor<5x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op update_window_dims [2] must be unique dimensions below 2
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<5x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @scatter_input_shapes(%a: tensor<3xf32>, %b: tensor<4xf32>, %i: tensor<6x1xi32>, %u: tensor<6xf32>) -> (tensor<3xf32>, tensor<4xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op all inputs (and all updates) must have the same shape
  %0:2 = "stablehlo.scatter"(%a, %b, %i, %u, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %p: tensor<f32>, %y: tensor<f32>, %q: tensor<f32>):
    stablehlo.return %y, %q : tensor<f32>, tensor<f32>
  }) : (tensor<3xf32>, tensor<4xf32>, tensor<6x1xi32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<3xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<4xf32>
}

// -----

func.func @scatter_update_element_type(%a: tensor<6x2xf32>, %i: tensor<3x1xi32>, %u: tensor<3x1xi1>) -> tensor<6x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op update 0 must have the element type of input 0
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x2xf32>, tensor<3x1xi32>, tensor<3x1xi1>) -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}

// -----

func.func @scatter_no_region(%a: tensor<3xf32>, %i: tensor<6x1xi32>, %u: tensor<6xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scatter' op requires an update computation region
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> : (tensor<3xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// ---- conv.rs ----

// -----

func.func @conv_element_types(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf64>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op lhs and rhs must have the same element type
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf64>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// One padding pair for two spatial dimensions.
func.func @conv_padding_shape(%a: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op requires dimension_numbers (#stablehlo.conv<...>) and a valid padding
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @conv_layout_rank(%a: tensor<1x4x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op dimension numbers must name every dimension of lhs, rhs and result once
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @conv_reversal(%a: tensor<1x4x4x2xf32>, %k: tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op window_reversal and padding must have 2 entries
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @conv_group_count(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op feature_group_count and batch_group_count must be positive
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @conv_feature_sizes(%a: tensor<1x4x3xf32>, %k: tensor<3x2x4xf32>) -> tensor<1x2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op feature sizes do not fit the groups: lhs features 3, kernel input features 2, output features 4, feature_group_count 1, batch_group_count 1
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x3xf32>, tensor<3x2x4xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @conv_result_shape(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x3x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.convolution' op inferred shape [1, 2, 2] does not match result shape [1, 3, 2]
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}

// ---- control.rs ----

// -----

func.func @while_result_types(%a: tensor<i32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.while' op results must have the types of the operands
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i32>):
    %c = stablehlo.compare LT, %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<i32>):
    stablehlo.return %x : tensor<i32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @while_one_region(%a: tensor<i32>) -> tensor<i32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.while' op requires a cond region and a body region
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i32>):
    %c = stablehlo.compare LT, %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_cond_args(%a: tensor<i32>) -> tensor<i32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.while' op cond and body must take arguments of the operands' types
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<f32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<i32>):
    stablehlo.return %x : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_cond_result(%a: tensor<i32>) -> tensor<i32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.while' op cond must return one tensor<i1>
  %0 = stablehlo.while(%iterArg = %a) : tensor<i32>
  cond {
    stablehlo.return %iterArg : tensor<i32>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @while_body_result(%a: tensor<i32>) -> tensor<i32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.while' op body must return values of the operands' types
  %0 = stablehlo.while(%iterArg = %a) : tensor<i32>
  cond {
    %c = stablehlo.compare LT, %iterArg, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %f = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
    stablehlo.return %f : tensor<f32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @while_tuple(%a: tuple<tensor<i32>>) -> tuple<tensor<i32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.while' op loop-carried values must be tensors (tuples and tokens are not supported)
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tuple<tensor<i32>>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tuple<tensor<i32>>):
    stablehlo.return %x : tuple<tensor<i32>>
  }) : (tuple<tensor<i32>>) -> tuple<tensor<i32>>
  return %0 : tuple<tensor<i32>>
}

// -----

func.func @if_operands(%p: tensor<i1>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.if' op expects one operand (the predicate or index)
  %0 = "stablehlo.if"(%p, %p) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }, {
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i1>, tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_predicate(%p: tensor<i32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.if' op predicate must be a tensor<i1>
  %0 = "stablehlo.if"(%p) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }, {
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_index(%i: tensor<i64>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.case' op index must be a tensor<i32>
  %0 = "stablehlo.case"(%i) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_one_branch(%p: tensor<i1>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.if' op expects 2 branches, found 1
  %0 = "stablehlo.if"(%p) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_no_branches(%i: tensor<i32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.case' op expects at least 1 branches, found 0
  %0 = "stablehlo.case"(%i) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_empty_branch(%i: tensor<i32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.case' op branch 1 is empty
  %0 = "stablehlo.case"(%i) ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }, {
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_branch_type(%i: tensor<i32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.case' op branch 0 must take no arguments and return the result types
  %0 = "stablehlo.case"(%i) ({
    %c = stablehlo.constant dense<1> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<i32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @case_tuple_result(%i: tensor<i32>, %t: tuple<tensor<f32>>) -> tuple<tensor<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.case' op results must be tensors (tuples and tokens are not supported)
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %t : tuple<tensor<f32>>
  }) : (tensor<i32>) -> tuple<tensor<f32>>
  return %0 : tuple<tensor<f32>>
}

// ---- decomposition.rs (householder_qr, householder_product, eigh, svd) ----

func.func @qr_rank(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.householder_qr' op operand #0 must be a batch of matrices (rank >= 2), found rank 1
  %0:2 = "xla.householder_qr"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<1xf32>
}

// -----

func.func @qr_element(%a: tensor<4x3xf16>) -> (tensor<4x3xf16>, tensor<3xf16>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.householder_qr' op operand #0 must have f32, f64, complex<f32> or complex<f64> elements, found f16
  %0:2 = "xla.householder_qr"(%a) : (tensor<4x3xf16>) -> (tensor<4x3xf16>, tensor<3xf16>)
  return %0#0, %0#1 : tensor<4x3xf16>, tensor<3xf16>
}

// -----

func.func @qr_tau(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.householder_qr' op inferred type tensor<3xf32> does not match result type tensor<4xf32>
  %0:2 = "xla.householder_qr"(%a) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4xf32>
}

// -----

func.func @product_tau(%a: tensor<2x4x3xf64>, %t: tensor<3xf64>) -> tensor<2x4x3xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.householder_product' op tau must be [2, 3] of a's element type with a's batch dimensions, found f64 of [3]
  %0 = "xla.householder_product"(%a, %t) : (tensor<2x4x3xf64>, tensor<3xf64>) -> tensor<2x4x3xf64>
  return %0 : tensor<2x4x3xf64>
}

// -----

func.func @product_wide(%a: tensor<3x4xf64>, %t: tensor<3xf64>) -> tensor<3x4xf64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.householder_product' op needs k <= n <= m for 3 reflectors into 3x4 matrices
  %0 = "xla.householder_product"(%a, %t) : (tensor<3x4xf64>, tensor<3xf64>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

func.func @eigh_square(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.eigh' op expects square matrices, found 3x4
  %0:3 = "xla.eigh"(%a) {lower = true, compute_vectors = true} : (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

func.func @eigh_flag(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.eigh' op requires a boolean attribute 'lower'
  %0:3 = "xla.eigh"(%a) {compute_vectors = true} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<i32>)
  return %0#1 : tensor<3xf32>
}

// -----

func.func @eigh_real_values(%a: tensor<3x3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.eigh' op inferred type tensor<3xf32> does not match result type tensor<3xcomplex<f32>>
  %0:3 = "xla.eigh"(%a) {lower = true, compute_vectors = true} : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<i32>)
  return %0#1 : tensor<3xcomplex<f32>>
}

// -----

func.func @svd_info(%a: tensor<2x4x3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.svd' op result #3 (info) must be i32 of shape [2], found i64 of [2]
  %0:4 = "xla.svd"(%a) {full_matrices = false, compute_uv = true} : (tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3x3xf32>, tensor<2xi64>)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @svd_full_u(%a: tensor<4x3xf32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.svd' op inferred type tensor<4x4xf32> does not match result type tensor<4x3xf32>
  %0:4 = "xla.svd"(%a) {full_matrices = true, compute_uv = true} : (tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>, tensor<3x3xf32>, tensor<i32>)
  return %0#0 : tensor<3xf32>
}

// -----

// ---- parse.rs (pretty syntax; these fail while parsing, so the error is at the token) ----

// -----

func.func @select_arity(%p: tensor<4xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.select' expects 3 operands, found 2
  %0 = stablehlo.select %p, %a : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @complex_signature(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected a tensor of complex type
  %0 = stablehlo.complex %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @constant_not_dense() -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected a dense elements attribute like dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.constant 1.0 : f32
  return %0 : tensor<f32>
}

// -----

func.func @dot_general_keyword(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown dot_general keyword 'contracting'
  %0 = stablehlo.dot_general %a, %b, contracting = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @dot_scalars(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: dot requires operands of rank 1 or 2
  %0 = stablehlo.dot %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @dot_precision(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown precision 'LOW'
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, LOW] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reduce_applies_unknown(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown operation 'stablehlo.plus'
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.plus across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_applies_unary(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'stablehlo.negate' cannot be applied as a reducer; expected a binary element-wise op
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.negate across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_applies_two_inputs(%a: tensor<4xf32>, %b: tensor<4xf32>, %z: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'applies' needs exactly one input
  %0:2 = stablehlo.reduce(%a init: %z), (%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

func.func @reduce_argument_group(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: each reducer argument group has two arguments
    reducer(%x: tensor<f32>, %y: tensor<f32>, %w: tensor<f32>) {
      stablehlo.return %x : tensor<f32>
    }
  return %0 : tensor<f32>
}

// -----

func.func @custom_call_target(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected a call target like @name, found string "target"
  %0 = stablehlo.custom_call "target"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @while_loop_variable(%a: tensor<i32>) -> tensor<i32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected a loop variable like %iterArg
  %0 = stablehlo.while(iterArg = %a) : tensor<i32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @conv_layout_token(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unexpected 'x' in convolution dimension numbers
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, x] : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @conv_layout_letters(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: layout must name 'i', 'o' and spatial dimensions 0..n once each
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, 1]->[b, 0, f] : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @conv_padding_entry(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: each padding entry is [low, high]
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1, 1]]} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @conv_window_field(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unknown window field 'dilate'
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {dilate = [1]} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @conv_reverse_value(%a: tensor<1x4x2xf32>, %k: tensor<3x2x2xf32>) -> tensor<1x2x2xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected true or false
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {reverse = [2]} : (tensor<1x4x2xf32>, tensor<3x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @composite_name(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected the composite's name, found 'my.op'
  %0 = stablehlo.composite my.op %a {decomposition = @f} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @three_fry_state_words(%s: tensor<3xui64>) -> tensor<4xui32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.rng_bit_generator' op THREE_FRY's state has 2 words
  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return %bits : tensor<4xui32>
}

// -----

func.func @philox_state_words(%s: tensor<4xui64>) -> tensor<4xui32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.rng_bit_generator' op PHILOX's state has 2 or 3 words (Philox), found 4
  %ns, %bits = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  return %bits : tensor<4xui32>
}

// -----

func.func @batch_norm_feature_index(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.batch_norm_inference' op feature_index 2 is out of range for rank 2
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 0.001 : f32, feature_index = 2 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_scale_size(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %o: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.batch_norm_training' op operand #1 must be a tensor of shape [3] and element type f32, found tensor<2xf32>
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) <{epsilon = 0.001 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3xf32>
}

// -----

func.func @ragged_contracting(%lhs: tensor<6x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi64>) -> tensor<3x6x5xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: unsupported: ragged_dot with a ragged contracting or batch dimension is not supported yet
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [1], rhs_group_dimensions = []>} : (tensor<6x4xf32>, tensor<3x4x5xf32>, tensor<3xi64>) -> tensor<3x6x5xf32>
  return %r : tensor<3x6x5xf32>
}

// -----

func.func @ragged_bad_dims(%lhs: tensor<6x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi64>) -> tensor<6x5xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.ragged_dot' op lhs contracting dimension 7 is out of range for rank 2
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [7], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<6x4xf32>, tensor<3x4x5xf32>, tensor<3xi64>) -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}

// -----

func.func @scan_carry_type(%input: tensor<4xi32>, %init: tensor<i32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scan' op the body's new carry #0 must have the init's type
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 {
  ^bb0(%x: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.convert %x : (tensor<i32>) -> tensor<f32>
    stablehlo.return %x, %1 : tensor<i32>, tensor<f32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0#0 : tensor<4xi32>
}

// -----

func.func @scan_dimension(%input: tensor<4xi32>, %init: tensor<i32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.scan' op expects inputs (at least one, with `dimension` in range)
  %0:2 = chlo.scan(%input) inits(%init) dimension=3 {
  ^bb0(%x: tensor<i32>, %c: tensor<i32>):
    stablehlo.return %x, %c : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0#0 : tensor<4xi32>
}

// -----

func.func @rng_normal_int(%a: tensor<i32>, %b: tensor<i32>) -> tensor<4xi32> {
  %s = stablehlo.constant dense<[4]> : tensor<1xi64>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.rng' op a NORMAL rng produces floats, not i32
  %r = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @rng_distribution(%a: tensor<f32>, %b: tensor<f32>) -> tensor<4xf32> {
  %s = stablehlo.constant dense<[4]> : tensor<1xi64>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.rng' op rng_distribution must be UNIFORM or NORMAL, found 'POISSON'
  %r = stablehlo.rng %a, %b, %s, distribution = POISSON : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @rng_bounds_type(%a: tensor<f64>, %b: tensor<f64>) -> tensor<4xf32> {
  %s = stablehlo.constant dense<[4]> : tensor<1xi64>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.rng' op operand #0 must be a scalar of the result's element type
  %r = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @cholesky_lower_not_bool(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected 'true' or 'false' for 'lower'
  %0 = stablehlo.cholesky %a, lower = "yes" : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @cholesky_integer(%a: tensor<3x3xi32>) -> tensor<3x3xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.cholesky' op supports float and complex elements, found i32
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xi32>
  return %0 : tensor<3x3xi32>
}

// -----

func.func @dynamic_broadcast_in_dim_unknown_keyword(%x: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<2x3xf32> {
  // CHECK: [[@LINE+1]]:63: error: expected known_expanding_dimensions or known_nonexpanding_dimensions
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1], expanding = [0] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Window attributes whose result size overflows i64 (found by fuzzing
// serialized artifacts): a located mismatch, never an overflow.
func.func @reduce_window_overflowing_dilation(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_window' op inferred type tensor<0xf32> does not match result type tensor<3xf32>
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 3801091>, window_dilations = array<i64: 48378511622145>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Region bodies are emitted on scalars of the operands' types: a body typed
// otherwise is the user's error (found by fuzzing, as for sort).
func.func @reduce_window_body_types(%a: tensor<4xi32>, %z: tensor<i32>) -> tensor<3xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.reduce_window' op reducer must take 2 0-d tensor arguments matching the inputs' element types
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @map_body_types(%a: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.map' op computation argument 0 must be a 0-d tensor of operand 0's element type
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    %i = stablehlo.convert %x : (tensor<f32>) -> tensor<i32>
    stablehlo.return %i : tensor<i32>
  }) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
