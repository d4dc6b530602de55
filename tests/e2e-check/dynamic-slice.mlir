// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}3 passed, 0 failed{{$}}

// Start indices are clamped to [0, dim - size] (StableHLO), whatever their
// integer type.
func.func @clamped_starts() {
  %x = stablehlo.iota dim = 0 : tensor<6xi32>
  %big = stablehlo.constant dense<10> : tensor<ui8>
  %neg = stablehlo.constant dense<-3> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %a = stablehlo.dynamic_slice %x, %big, sizes = [2] : (tensor<6xi32>, tensor<ui8>) -> tensor<2xi32>
  %b = stablehlo.dynamic_slice %x, %neg, sizes = [2] : (tensor<6xi32>, tensor<i64>) -> tensor<2xi32>
  %c = stablehlo.dynamic_slice %x, %one, sizes = [3] : (tensor<6xi32>, tensor<i64>) -> tensor<3xi32>
  check.expect_eq_const %a, dense<[4, 5]> : tensor<2xi32>
  check.expect_eq_const %b, dense<[0, 1]> : tensor<2xi32>
  check.expect_eq_const %c, dense<[1, 2, 3]> : tensor<3xi32>
  func.return
}

// -----

func.func @two_dims() {
  %x = stablehlo.iota dim = 1 : tensor<3x4xf32>
  %y = stablehlo.iota dim = 0 : tensor<3x4xf32>
  %z = stablehlo.add %x, %y : tensor<3x4xf32>
  %i = stablehlo.constant dense<2> : tensor<i32>
  %j = stablehlo.constant dense<1> : tensor<i32>
  %s = stablehlo.dynamic_slice %z, %i, %j, sizes = [2, 2] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  // rows clamped to start 1: [[1+1, 1+2], [2+1, 2+2]]
  check.expect_eq_const %s, dense<[[2.0, 3.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @update() {
  %x = stablehlo.constant dense<0> : tensor<2x5xi32>
  %u = stablehlo.constant dense<[[7, 8, 9]]> : tensor<1x3xi32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %j = stablehlo.constant dense<4> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<2x5xi32>, tensor<1x3xi32>, tensor<i32>, tensor<i32>) -> tensor<2x5xi32>
  // column start clamped from 4 to 2
  check.expect_eq_const %r, dense<[[0, 0, 0, 0, 0], [0, 0, 7, 8, 9]]> : tensor<2x5xi32>
  func.return
}
