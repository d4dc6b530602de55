// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}4 passed, 0 failed{{$}}

// A while loop's state slot that the body returns unchanged is read where
// its initial value lies (no copy): that buffer must then live as long as
// the initial value or the loop's result is read, and must not be
// updated in place while either is.

// The initial value dies at the loop; a value of the same size made after
// the loop must not be given its buffer while the loop's result is read.
func.func @passed_through_temporary() {
  %x = stablehlo.iota dim = 0 : tensor<4xf32>
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %yb = stablehlo.optimization_barrier %y : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%w = %yb, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %w, %j : tensor<4xf32>, tensor<i32>
  }
  %t = stablehlo.add %x, %x : tensor<4xf32>
  %tb = stablehlo.optimization_barrier %t : tensor<4xf32>
  %s = stablehlo.add %r#0, %tb : tensor<4xf32>
  // x*x + 2x
  check.expect_eq_const %s, dense<[0.0, 3.0, 8.0, 15.0]> : tensor<4xf32>
  func.return
}

// -----

// The initial value is read again after the loop.
func.func @initial_value_read_after_the_loop() {
  %x = stablehlo.iota dim = 0 : tensor<4xf32>
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%w = %y, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %w, %j : tensor<4xf32>, tensor<i32>
  }
  %t = stablehlo.add %x, %x : tensor<4xf32>
  %tb = stablehlo.optimization_barrier %t : tensor<4xf32>
  %s = stablehlo.add %r#0, %y : tensor<4xf32>
  %u = stablehlo.add %s, %tb : tensor<4xf32>
  // 2 x*x + 2x
  check.expect_eq_const %u, dense<[0.0, 4.0, 12.0, 24.0]> : tensor<4xf32>
  func.return
}

// -----

// One value in two slots: one passed through, one updated from it.
func.func @one_value_in_two_slots() {
  %x = stablehlo.iota dim = 0 : tensor<4xf32>
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%a = %y, %b = %y, %i = %c0) : tensor<4xf32>, tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.add %b, %a : tensor<4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %a, %s, %j : tensor<4xf32>, tensor<4xf32>, tensor<i32>
  }
  check.expect_eq_const %r#0, dense<[0.0, 1.0, 4.0, 9.0]> : tensor<4xf32>
  check.expect_eq_const %r#1, dense<[0.0, 3.0, 12.0, 27.0]> : tensor<4xf32>
  func.return
}

// -----

// An outer loop's state passed through an inner loop, then updated by a
// dynamic_update_slice while the inner loop's result (the same buffer) is
// still read: the update must not be made in place.
func.func @outer_state_through_an_inner_loop() {
  %z = stablehlo.constant dense<0.0> : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%cache = %z, %k = %z, %i = %c0) : tensor<4xf32>, tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %f0 = stablehlo.constant dense<0.0> : tensor<f32>
    %q:3 = stablehlo.while(%c = %cache, %j = %c0, %acc = %f0) : tensor<4xf32>, tensor<i32>, tensor<f32>
    cond {
      %m = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %j, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %d = stablehlo.dynamic_slice %c, %j, sizes = [1] : (tensor<4xf32>, tensor<i32>) -> tensor<1xf32>
      %e = stablehlo.reshape %d : (tensor<1xf32>) -> tensor<f32>
      %a = stablehlo.add %acc, %e : tensor<f32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j1 = stablehlo.add %j, %one : tensor<i32>
      stablehlo.return %c, %j1, %a : tensor<4xf32>, tensor<i32>, tensor<f32>
    }
    %f1 = stablehlo.constant dense<1.0> : tensor<f32>
    %v = stablehlo.add %q#2, %f1 : tensor<f32>
    %vb = stablehlo.broadcast_in_dim %v, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %new = stablehlo.dynamic_update_slice %cache, %vb, %i : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    %keep = stablehlo.add %q#0, %q#0 : tensor<4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %new, %keep, %i1 : tensor<4xf32>, tensor<4xf32>, tensor<i32>
  }
  // cache: [1, 0, 0, 0] after the first step, [1, 2, 0, 0] after the
  // second; keep: twice the cache before the second step's update.
  check.expect_eq_const %r#0, dense<[1.0, 2.0, 0.0, 0.0]> : tensor<4xf32>
  check.expect_eq_const %r#1, dense<[2.0, 0.0, 0.0, 0.0]> : tensor<4xf32>
  func.return
}
