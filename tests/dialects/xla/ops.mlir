// RUN: strata opt %s --split-input-file | FileCheck %s
// RUN: strata opt %s --split-input-file | strata opt /dev/stdin --split-input-file | FileCheck %s

// Round trip of the xla dialect: the pretty StableHLO forms JAX prints parse
// as their `xla.*` twins and print in generic syntax, which parses again.

// CHECK-LABEL: func.func @unary_float
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>)
func.func @unary_float(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[ABS:.*]] = "xla.abs"(%[[A]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = stablehlo.abs %a : tensor<2x3xf32>
  // CHECK: %[[NEG:.*]] = "xla.negate"(%[[ABS]])
  %1 = stablehlo.negate %0 : tensor<2x3xf32>
  // CHECK: "xla.sqrt"(%[[NEG]])
  %2 = stablehlo.sqrt %1 : tensor<2x3xf32>
  // CHECK: "xla.rsqrt"
  %3 = stablehlo.rsqrt %2 : tensor<2x3xf32>
  // CHECK: "xla.cbrt"
  %4 = stablehlo.cbrt %3 : tensor<2x3xf32>
  // CHECK: "xla.exponential"
  %5 = stablehlo.exponential %4 : tensor<2x3xf32>
  // CHECK: "xla.exponential_minus_one"
  %6 = stablehlo.exponential_minus_one %5 : tensor<2x3xf32>
  // CHECK: "xla.log"
  %7 = stablehlo.log %6 : tensor<2x3xf32>
  // CHECK: "xla.log_plus_one"
  %8 = stablehlo.log_plus_one %7 : tensor<2x3xf32>
  // CHECK: "xla.logistic"
  %9 = stablehlo.logistic %8 : tensor<2x3xf32>
  // CHECK: "xla.sine"
  %10 = stablehlo.sine %9 : tensor<2x3xf32>
  // CHECK: "xla.cosine"
  %11 = stablehlo.cosine %10 : tensor<2x3xf32>
  // CHECK: "xla.tan"
  %12 = stablehlo.tan %11 : tensor<2x3xf32>
  // CHECK: "xla.tanh"
  %13 = stablehlo.tanh %12 : tensor<2x3xf32>
  // CHECK: "xla.floor"
  %14 = stablehlo.floor %13 : tensor<2x3xf32>
  // CHECK: "xla.ceil"
  %15 = stablehlo.ceil %14 : tensor<2x3xf32>
  // CHECK: "xla.round_nearest_afz"
  %16 = stablehlo.round_nearest_afz %15 : tensor<2x3xf32>
  // CHECK: "xla.round_nearest_even"
  %17 = stablehlo.round_nearest_even %16 : tensor<2x3xf32>
  // The function-type form of the signature.
  // CHECK: %[[SIGN:.*]] = "xla.sign"({{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %18 = stablehlo.sign %17 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[SIGN]]) : (tensor<2x3xf32>) -> ()
  return %18 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @unary_int
// CHECK-SAME: (%[[I:.*]]: tensor<4xi32>, %[[P:.*]]: tensor<4xi1>)
func.func @unary_int(%i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>) {
  // CHECK: %[[NOT:.*]] = "xla.not"(%[[I]]) : (tensor<4xi32>) -> tensor<4xi32>
  %0 = stablehlo.not %i : tensor<4xi32>
  // CHECK: %[[POP:.*]] = "xla.popcnt"(%[[NOT]])
  %1 = stablehlo.popcnt %0 : tensor<4xi32>
  // CHECK: %[[CLZ:.*]] = "xla.count_leading_zeros"(%[[POP]])
  %2 = stablehlo.count_leading_zeros %1 : tensor<4xi32>
  // CHECK: %[[NOTP:.*]] = "xla.not"(%[[P]]) : (tensor<4xi1>) -> tensor<4xi1>
  %3 = stablehlo.not %p : tensor<4xi1>
  // CHECK: "func.return"(%[[CLZ]], %[[NOTP]])
  return %2, %3 : tensor<4xi32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xi8>, %[[N:.*]]: tensor<3xi8>)
func.func @binary(%x: tensor<3xf32>, %y: tensor<3xf32>, %m: tensor<3xi8>, %n: tensor<3xi8>) -> (tensor<3xf32>, tensor<3xi8>) {
  // CHECK: %[[ADD:.*]] = "xla.add"(%[[X]], %[[Y]]) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %0 = stablehlo.add %x, %y : tensor<3xf32>
  // CHECK: %[[SUB:.*]] = "xla.subtract"(%[[ADD]], %[[Y]])
  %1 = stablehlo.subtract %0, %y : tensor<3xf32>
  // CHECK: "xla.multiply"(%[[SUB]], %[[X]])
  %2 = stablehlo.multiply %1, %x : tensor<3xf32>
  // CHECK: "xla.divide"
  %3 = stablehlo.divide %2, %x : tensor<3xf32>
  // CHECK: "xla.remainder"
  %4 = stablehlo.remainder %3, %x : tensor<3xf32>
  // CHECK: "xla.power"
  %5 = stablehlo.power %4, %x : tensor<3xf32>
  // CHECK: "xla.maximum"
  %6 = stablehlo.maximum %5, %x : tensor<3xf32>
  // CHECK: "xla.minimum"
  %7 = stablehlo.minimum %6, %x : tensor<3xf32>
  // CHECK: %[[ATAN2:.*]] = "xla.atan2"
  %8 = stablehlo.atan2 %7, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: %[[AND:.*]] = "xla.and"(%[[M]], %[[N]]) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %9 = stablehlo.and %m, %n : tensor<3xi8>
  // CHECK: "xla.or"(%[[AND]], %[[N]])
  %10 = stablehlo.or %9, %n : tensor<3xi8>
  // CHECK: "xla.xor"
  %11 = stablehlo.xor %10, %n : tensor<3xi8>
  // CHECK: "xla.shift_left"
  %12 = stablehlo.shift_left %11, %n : tensor<3xi8>
  // CHECK: "xla.shift_right_arithmetic"
  %13 = stablehlo.shift_right_arithmetic %12, %n : tensor<3xi8>
  // CHECK: %[[SRL:.*]] = "xla.shift_right_logical"
  %14 = stablehlo.shift_right_logical %13, %n : tensor<3xi8>
  // CHECK: "func.return"(%[[ATAN2]], %[[SRL]])
  return %8, %14 : tensor<3xf32>, tensor<3xi8>
}

// -----

// CHECK-LABEL: func.func @chlo_and_mhlo_spellings
func.func @chlo_and_mhlo_spellings(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[A:.*]] = "xla.add"
  %0 = chlo.broadcast_add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "xla.multiply"(%[[A]], %[[A]])
  %1 = mhlo.multiply %0, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[F:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
func.func @compare(%f: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: "xla.compare"(%[[F]], %[[F]]) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.compare  LT, %f, %f,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // Without a comparison type there is no compare_type attribute.
  // CHECK: "xla.compare"(%[[I]], %[[I]]) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = stablehlo.compare  EQ, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: "xla.compare"(%[[I]], %[[I]]) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type UNSIGNED>}
  %2 = stablehlo.compare  GE, %i, %i,  UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @select_clamp
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[Q:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[LO:.*]]: tensor<f32>)
func.func @select_clamp(%p: tensor<i1>, %q: tensor<4xi1>, %a: tensor<4xf32>, %lo: tensor<f32>) -> tensor<4xf32> {
  // Short form `: P, T` with a scalar predicate.
  // CHECK: %[[S0:.*]] = "xla.select"(%[[P]], %[[A]], %[[A]]) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<4xf32>
  // Function-type form with an element-wise predicate.
  // CHECK: %[[S1:.*]] = "xla.select"(%[[Q]], %[[S0]], %[[A]]) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.select %q, %0, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[C0:.*]] = "xla.clamp"(%[[A]], %[[S1]], %[[A]]) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.clamp %a, %1, %a : tensor<4xf32>
  // Scalar bounds.
  // CHECK: %[[C1:.*]] = "xla.clamp"(%[[LO]], %[[C0]], %[[LO]]) : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = stablehlo.clamp %lo, %2, %lo : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: "func.return"(%[[C1]])
  return %3 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @conversions
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<2xf64>)
func.func @conversions(%a: tensor<4xf32>, %b: tensor<2xf64>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<2x2xf32>, tensor<4xbf16>) {
  // CHECK: "xla.convert"(%[[A]]) : (tensor<4xf32>) -> tensor<4xi32>
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: "xla.convert"(%[[A]]) : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
  // CHECK: "xla.bitcast_convert"(%[[A]]) : (tensor<4xf32>) -> tensor<4xi32>
  %2 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi32>
  // Bitcast to a narrower type adds a dimension.
  // CHECK: "xla.bitcast_convert"(%[[B]]) : (tensor<2xf64>) -> tensor<2x2xf32>
  %3 = stablehlo.bitcast_convert %b : (tensor<2xf64>) -> tensor<2x2xf32>
  // CHECK: "xla.is_finite"(%[[A]]) : (tensor<4xf32>) -> tensor<4xi1>
  %4 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  return %0, %2, %4, %3, %1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<2x2xf32>, tensor<4xbf16>
}

// -----

// CHECK-LABEL: func.func @complex_parts
// CHECK-SAME: (%[[RE:.*]]: tensor<2xf32>, %[[IM:.*]]: tensor<2xf32>)
func.func @complex_parts(%re: tensor<2xf32>, %im: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // The single-type form names the complex result type.
  // CHECK: %[[C:.*]] = "xla.complex"(%[[RE]], %[[IM]]) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
  %0 = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  // CHECK: %[[R:.*]] = "xla.real"(%[[C]]) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %1 = stablehlo.real %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: %[[I:.*]] = "xla.imag"(%[[C]]) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %2 = stablehlo.imag %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // abs of a complex number is real.
  // CHECK: %[[ABS:.*]] = "xla.abs"(%[[C]]) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %3 = stablehlo.abs %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: "func.return"(%[[R]], %[[I]], %[[ABS]])
  return %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: "xla.constant"() {value = dense<1.5> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = stablehlo.constant dense<1.5> : tensor<2x2xf32>
  // CHECK: "xla.constant"() {value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %1 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // Hex strings hold the raw little-endian data.
  // CHECK: "xla.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  // Special floats by bit pattern: -inf, inf, NaN; and negative zero.
  // CHECK: "xla.constant"() {value = dense<[0xFF800000, 0x7F800000, 0x7FC00000, -0.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %3 = stablehlo.constant dense<[0xFF800000, 0x7F800000, 0x7FC00000, -0.0]> : tensor<4xf32>
  // CHECK: "xla.constant"() {value = dense<[(1.0, 2.0), (-3.5, 0.0)]> : tensor<2xcomplex<f32>>} : () -> tensor<2xcomplex<f32>>
  %4 = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.0)]> : tensor<2xcomplex<f32>>
  // CHECK: "xla.constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %5 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: "xla.constant"() {value = dense<[0, 255]> : tensor<2xui8>} : () -> tensor<2xui8>
  %6 = stablehlo.constant dense<[0, 255]> : tensor<2xui8>
  // CHECK: "xla.constant"() {value = dense<[-8, 7]> : tensor<2xi4>} : () -> tensor<2xi4>
  %7 = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  // CHECK: "xla.constant"() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %8 = stablehlo.constant dense<3> : tensor<i64>
  // CHECK: "xla.constant"() {value = dense<[0x3F80, 0x4000]> : tensor<2xbf16>} : () -> tensor<2xbf16>
  %9 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  // CHECK: "xla.constant"() {value = dense<0x7E00> : tensor<f16>} : () -> tensor<f16>
  %10 = stablehlo.constant dense<0x7E00> : tensor<f16>
  // CHECK: "xla.constant"() {value = dense<[]> : tensor<0xf32>} : () -> tensor<0xf32>
  %11 = stablehlo.constant dense<> : tensor<0xf32>
  // CHECK: "xla.constant"() {value = dense<(0.0, -1.0)> : tensor<complex<f64>>} : () -> tensor<complex<f64>>
  %12 = stablehlo.constant dense<(0.0, -1.0)> : tensor<complex<f64>>
  func.return
}

// -----

// CHECK-LABEL: func.func @shape_ops
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<f32>)
func.func @shape_ops(%a: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x3xi32>, tensor<4x2x3xf32>, tensor<6xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>) {
  // CHECK: "xla.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>
  %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  // CHECK: "xla.broadcast_in_dim"(%[[S]]) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: "xla.broadcast_in_dim"(%[[A]]) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %2 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  // CHECK: "xla.reshape"(%[[A]]) : (tensor<2x3xf32>) -> tensor<6xf32>
  %3 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: "xla.transpose"(%[[A]]) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // A missing stride is 1.
  // CHECK: "xla.slice"(%[[A]]) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<1x2xf32>
  %5 = stablehlo.slice %a [0:2:2, 1:3] : (tensor<2x3xf32>) -> tensor<1x2xf32>
  // CHECK: "xla.concatenate"(%[[A]], %[[A]]) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %6 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK: "xla.reverse"(%[[A]]) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = stablehlo.reverse %a, dims = [0, 1] : tensor<2x3xf32>
  // Negative edge padding removes elements.
  // CHECK: "xla.pad"(%[[A]], %[[S]]) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 1, -1>, interior_padding = array<i64: 1, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %8 = stablehlo.pad %a, %s, low = [0, 1], high = [1, -1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %9 = stablehlo.slice %a [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0, %2, %3, %4, %9, %6, %7, %8 : tensor<2x3xi32>, tensor<4x2x3xf32>, tensor<6xf32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @dot_general
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x4x5xf32>, %[[M:.*]]: tensor<3x4xf32>, %[[V:.*]]: tensor<4xf32>)
func.func @dot_general(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>) -> (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK: "xla.dot_general"(%[[A]], %[[B]])
  // CHECK-SAME: precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]
  // CHECK-SAME: dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0 : i64], rhs_batching_dimensions = [0 : i64], lhs_contracting_dimensions = [2 : i64], rhs_contracting_dimensions = [1 : i64]>
  // CHECK-SAME: : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: "xla.dot_general"(%[[M]], %[[V]]) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1 : i64], rhs_contracting_dimensions = [0 : i64]>} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %1 = stablehlo.dot_general %m, %v, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  // `dot` contracts the last lhs dimension with the first rhs dimension.
  // CHECK: "xla.dot_general"(%[[M]], %[[V]]) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1 : i64], rhs_contracting_dimensions = [0 : i64]>} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %2 = stablehlo.dot %m, %v : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  // CHECK: "xla.dot_general"(%[[M]], %[[V]]) {precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], dot_dimension_numbers
  %3 = stablehlo.dot %m, %v, precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_applies
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>)
func.func @reduce_applies(%a: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<f32>) {
  // CHECK: %[[Z:.*]] = "xla.constant"
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // `applies` builds the reducer region.
  // CHECK: %[[R0:.*]] = "xla.reduce"(%[[A]], %[[Z]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[S:.*]] = "xla.add"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[S]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK: %[[R1:.*]] = "xla.reduce"(%[[A]], %[[Z]])
  // CHECK: "xla.maximum"
  // CHECK: {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  // CHECK: "func.return"(%[[R0]], %[[R1]])
  return %0, %1 : tensor<2xf32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @reduce_region_multi_input
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi32>)
func.func @reduce_region_multi_input(%a: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  // Block arguments are all accumulators, then all elements.
  // CHECK: %[[R:.*]]:2 = "xla.reduce"(%[[A]], %[[I]], %{{.*}}, %{{.*}}) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[P:.*]]: tensor<i32>, %[[Y:.*]]: tensor<f32>, %[[Q:.*]]: tensor<i32>):
  // CHECK-NEXT: %[[S:.*]] = "xla.add"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: %[[T:.*]] = "xla.add"(%[[P]], %[[Q]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK-NEXT: "xla.return"(%[[S]], %[[T]]) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT: }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  %0:2 = stablehlo.reduce(%a init: %z), (%i init: %zi) across dimensions = [0] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%p: tensor<i32>, %q: tensor<i32>)  {
      %s = stablehlo.add %x, %y : tensor<f32>
      %t = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %s, %t : tensor<f32>, tensor<i32>
    }
  // CHECK: "func.return"(%[[R]]#0, %[[R]]#1)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
}

// -----

// CHECK-LABEL: module @jax_module attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}
module @jax_module attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  // CHECK-LABEL: func.func @main
  // CHECK-SAME: (%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32>
  func.func public @main(%a: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    // CHECK: %[[B:.*]]:2 = "xla.optimization_barrier"(%[[A]], %[[A]]) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %0:2 = stablehlo.optimization_barrier %a, %a : tensor<4xf32>, tensor<4xf32>
    // CHECK: %[[C1:.*]] = "func.call"(%[[B]]#0) {callee = @helper} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = call @helper(%0#0) : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: %[[C2:.*]] = "func.call"(%[[C1]]) {callee = @helper}
    %2 = func.call @helper(%1) : (tensor<4xf32>) -> tensor<4xf32>
    // CHECK: "func.return"(%[[C2]])
    return %2 : tensor<4xf32>
  }
  // CHECK-LABEL: func.func private @helper
  func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: "xla.negate"
    %0 = stablehlo.negate %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// The decompositions `xla-lapack-custom-calls` makes (generic syntax only).

// CHECK-LABEL: func.func @decompositions
// CHECK: %[[QR:.*]]:2 = "xla.householder_qr"(%arg0) : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xf32>)
// CHECK: "xla.householder_product"(%[[QR]]#0, %[[QR]]#1) : (tensor<2x4x3xf32>, tensor<2x3xf32>) -> tensor<2x4x3xf32>
// CHECK: "xla.eigh"(%arg1) {lower = true, compute_vectors = true} : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xf64>, tensor<i32>)
// CHECK: "xla.svd"(%arg0) {full_matrices = false, compute_uv = true} : (tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
func.func @decompositions(%a: tensor<2x4x3xf32>, %h: tensor<3x3xcomplex<f64>>) -> (tensor<2x4x3xf32>, tensor<3xf64>, tensor<2x3xf32>) {
  %0:2 = "xla.householder_qr"(%a) : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xf32>)
  %1 = "xla.householder_product"(%0#0, %0#1) : (tensor<2x4x3xf32>, tensor<2x3xf32>) -> tensor<2x4x3xf32>
  %2:3 = "xla.eigh"(%h) {lower = true, compute_vectors = true} : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xf64>, tensor<i32>)
  %3:4 = "xla.svd"(%a) {full_matrices = false, compute_uv = true} : (tensor<2x4x3xf32>) -> (tensor<2x3xf32>, tensor<2x4x3xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
  return %1, %2#1, %3#0 : tensor<2x4x3xf32>, tensor<3xf64>, tensor<2x3xf32>
}

// -----

// stablehlo.cholesky in its custom form: `lower` given or left to its
// default (false: no attribute); real and complex.
// CHECK-LABEL: func.func @cholesky
// CHECK: "xla.cholesky"(%arg0) {lower = true} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
// CHECK: "xla.cholesky"(%arg1) : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>>
func.func @cholesky(%a: tensor<2x3x3xf32>, %h: tensor<3x3xcomplex<f64>>) -> (tensor<2x3x3xf32>, tensor<3x3xcomplex<f64>>) {
  %0 = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>
  %1 = stablehlo.cholesky %h : tensor<3x3xcomplex<f64>>
  return %0, %1 : tensor<2x3x3xf32>, tensor<3x3xcomplex<f64>>
}
