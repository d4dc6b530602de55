// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of CHLO's element-wise math, the float predicates, xla.mulhi and reduce_precision.

// CHECK-LABEL: func.func @chlo_unary
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>)
func.func @chlo_unary(%a: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[ACOS:.*]] = "xla.acos"(%[[A]]) : (tensor<3xf32>) -> tensor<3xf32>
  %0 = chlo.acos %a : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ACOSH:.*]] = "xla.acosh"(%[[ACOS]]) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = chlo.acosh %0 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ASIN:.*]] = "xla.asin"(%[[ACOSH]]) : (tensor<3xf32>) -> tensor<3xf32>
  %2 = chlo.asin %1 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ASINH:.*]] = "xla.asinh"(%[[ASIN]]) : (tensor<3xf32>) -> tensor<3xf32>
  %3 = chlo.asinh %2 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ATAN:.*]] = "xla.atan"(%[[ASINH]]) : (tensor<3xf32>) -> tensor<3xf32>
  %4 = chlo.atan %3 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ATANH:.*]] = "xla.atanh"(%[[ATAN]]) : (tensor<3xf32>) -> tensor<3xf32>
  %5 = chlo.atanh %4 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[COSH:.*]] = "xla.cosh"(%[[ATANH]]) : (tensor<3xf32>) -> tensor<3xf32>
  %6 = chlo.cosh %5 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[SINH:.*]] = "xla.sinh"(%[[COSH]]) : (tensor<3xf32>) -> tensor<3xf32>
  %7 = chlo.sinh %6 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[I1E:.*]] = "xla.bessel_i1e"(%[[SINH]]) : (tensor<3xf32>) -> tensor<3xf32>
  %8 = chlo.bessel_i1e %7 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[DIGAMMA:.*]] = "xla.digamma"(%[[I1E]]) : (tensor<3xf32>) -> tensor<3xf32>
  %9 = chlo.digamma %8 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ERF:.*]] = "xla.erf"(%[[DIGAMMA]]) : (tensor<3xf32>) -> tensor<3xf32>
  %10 = chlo.erf %9 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ERFINV:.*]] = "xla.erf_inv"(%[[ERF]]) : (tensor<3xf32>) -> tensor<3xf32>
  %11 = chlo.erf_inv %10 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ERFC:.*]] = "xla.erfc"(%[[ERFINV]]) : (tensor<3xf32>) -> tensor<3xf32>
  %12 = chlo.erfc %11 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[LGAMMA:.*]] = "xla.lgamma"(%[[ERFC]]) : (tensor<3xf32>) -> tensor<3xf32>
  %13 = chlo.lgamma %12 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[SQUARE:.*]] = "xla.square"(%[[LGAMMA]]) : (tensor<3xf32>) -> tensor<3xf32>
  %14 = chlo.square %13 : tensor<3xf32> -> tensor<3xf32>
  // CHECK: "func.return"(%[[SQUARE]]) : (tensor<3xf32>) -> ()
  return %14 : tensor<3xf32>
}

// CHECK-LABEL: func.func @chlo_unary_complex
// CHECK-SAME: (%[[Z:.*]]: tensor<2xcomplex<f32>>)
func.func @chlo_unary_complex(%z: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // CHECK: %[[R:.*]] = "xla.asin"(%[[Z]]) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %0 = chlo.asin %z : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  // CHECK: "xla.square"(%[[R]]) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %1 = chlo.square %0 : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %1 : tensor<2xcomplex<f32>>
}

// CHECK-LABEL: func.func @float_predicates
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>)
func.func @float_predicates(%a: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  // CHECK: %[[INF:.*]] = "xla.is_inf"(%[[A]]) : (tensor<3xf32>) -> tensor<3xi1>
  %0 = chlo.is_inf %a : tensor<3xf32> -> tensor<3xi1>
  // CHECK: %[[POS:.*]] = "xla.is_pos_inf"(%[[A]]) : (tensor<3xf32>) -> tensor<3xi1>
  %1 = chlo.is_pos_inf %a : tensor<3xf32> -> tensor<3xi1>
  // CHECK: %[[NEG:.*]] = "xla.is_neg_inf"(%[[A]]) : (tensor<3xf32>) -> tensor<3xi1>
  %2 = chlo.is_neg_inf %a : tensor<3xf32> -> tensor<3xi1>
  // CHECK: "func.return"(%[[INF]], %[[POS]], %[[NEG]])
  return %0, %1, %2 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// CHECK-LABEL: func.func @chlo_binary
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>)
func.func @chlo_binary(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[NEXT:.*]] = "xla.next_after"(%[[A]], %[[B]]) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %0 = chlo.next_after %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[POLY:.*]] = "xla.polygamma"(%[[NEXT]], %[[B]]) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = chlo.polygamma %0, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  // CHECK: %[[ZETA:.*]] = "xla.zeta"(%[[POLY]], %[[B]]) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = chlo.zeta %1, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  // CHECK: "func.return"(%[[ZETA]])
  return %2 : tensor<3xf32>
}

// xla.mulhi has no StableHLO spelling: generic syntax, signed and unsigned.
// CHECK-LABEL: func.func @mulhi
// CHECK-SAME: (%[[I:.*]]: tensor<3xi32>, %[[U:.*]]: tensor<3xui32>)
func.func @mulhi(%i: tensor<3xi32>, %u: tensor<3xui32>) -> (tensor<3xi32>, tensor<3xui32>) {
  // CHECK: %[[HI:.*]] = "xla.mulhi"(%[[I]], %[[I]]) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %0 = "xla.mulhi"(%i, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: %[[UHI:.*]] = "xla.mulhi"(%[[U]], %[[U]]) : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xui32>
  %1 = "xla.mulhi"(%u, %u) : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xui32>
  // CHECK: "func.return"(%[[HI]], %[[UHI]])
  return %0, %1 : tensor<3xi32>, tensor<3xui32>
}

// CHECK-LABEL: func.func @reduce_precision
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>)
func.func @reduce_precision(%a: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[H:.*]] = "xla.reduce_precision"(%[[A]]) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  %0 = stablehlo.reduce_precision %a, format = e5m10 : tensor<3xf32>
  // CHECK: "xla.reduce_precision"(%[[H]]) {exponent_bits = 8 : i32, mantissa_bits = 7 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.reduce_precision %0, format = e8m7 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
