// RUN: strata check %s | FileCheck %s
// CHECK: {{^}}1 passed, 0 failed{{$}}

// `window = {}`: every window attribute at its default, as StableHLO prints a
// 1x1 convolution. Expected values from numpy
// (np.einsum('bhwi,io->bhwo', x, w) with x = arange(8), w = [[1,2,3],[4,5,6]]).

func.func @one_by_one() {
  %x = stablehlo.constant dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]]> : tensor<1x2x2x2xf32>
  %w = stablehlo.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]> : tensor<1x1x2x3xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x2x2x3xf32>
  check.expect_eq_const %0, dense<[[[[4.0, 5.0, 6.0], [14.0, 19.0, 24.0]], [[24.0, 33.0, 42.0], [34.0, 47.0, 60.0]]]]> : tensor<1x2x2x3xf32>
  func.return
}
