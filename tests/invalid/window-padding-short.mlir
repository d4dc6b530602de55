// RUN: not strata opt %s 2>&1 | FileCheck %s

// Regression: a padding attribute with fewer than 2 x rank entries was read
// past its end (a panic in dense.rs) before its size was checked.

func.func @rw_padding_short(%a: tensor<4x4xf32>, %z: tensor<f32>) -> tensor<3x3xf32> {
  // CHECK: [[@LINE+1]]:8: error: 'xla.reduce_window' op requires window_dimensions and a padding of shape [rank, 2]
  %0 = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[1, 2]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
