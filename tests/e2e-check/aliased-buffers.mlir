// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}3 passed, 0 failed{{$}}

// A value that names another value's buffer (an optimization barrier's
// result, a tuple's element) keeps that buffer alive until its own last
// reader: the buffer is not freed, and not given to a later value, when
// the first name dies.
func.func @barrier_outlives_its_operand() {
  %x = stablehlo.iota dim = 0 : tensor<4xf32>
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %z = stablehlo.optimization_barrier %y : tensor<4xf32>
  %a = stablehlo.add %x, %x : tensor<4xf32>
  %a2 = stablehlo.optimization_barrier %a : tensor<4xf32>
  %w = stablehlo.add %z, %a2 : tensor<4xf32>
  // x*x + 2x
  check.expect_eq_const %w, dense<[0.0, 3.0, 8.0, 15.0]> : tensor<4xf32>
  func.return
}

// -----

// The operand is read after the barrier's result died.
func.func @operand_outlives_the_barrier() {
  %x = stablehlo.iota dim = 0 : tensor<4xf32>
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %z = stablehlo.optimization_barrier %y : tensor<4xf32>
  %n = stablehlo.negate %z : tensor<4xf32>
  %n2 = stablehlo.optimization_barrier %n : tensor<4xf32>
  %a = stablehlo.add %x, %x : tensor<4xf32>
  %a2 = stablehlo.optimization_barrier %a : tensor<4xf32>
  %w = stablehlo.add %y, %a2 : tensor<4xf32>
  %v = stablehlo.add %w, %n2 : tensor<4xf32>
  // x*x + 2x - x*x
  check.expect_eq_const %v, dense<[0.0, 2.0, 4.0, 6.0]> : tensor<4xf32>
  func.return
}

// -----

func.func @tuple_element_outlives_its_value() {
  %x = stablehlo.iota dim = 0 : tensor<4xf32>
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %yb = stablehlo.optimization_barrier %y : tensor<4xf32>
  %t = stablehlo.tuple %yb, %x : tuple<tensor<4xf32>, tensor<4xf32>>
  %a = stablehlo.add %x, %x : tensor<4xf32>
  %a2 = stablehlo.optimization_barrier %a : tensor<4xf32>
  %e = stablehlo.get_tuple_element %t[0] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %w = stablehlo.add %e, %a2 : tensor<4xf32>
  check.expect_eq_const %w, dense<[0.0, 3.0, 8.0, 15.0]> : tensor<4xf32>
  func.return
}
