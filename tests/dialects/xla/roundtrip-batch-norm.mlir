// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of batch_norm_inference, batch_norm_training and batch_norm_grad.

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[O:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<3xf32>)
func.func @batch_norm_inference(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[Y:.*]] = "xla.batch_norm_inference"(%[[X]], %[[S]], %[[O]], %[[M]], %[[V]]) {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) <{epsilon = 0.001 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[Y]])
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[O:.*]]: tensor<3xf32>)
func.func @batch_norm_training(%x: tensor<2x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[T:.*]]:3 = "xla.batch_norm_training"(%[[X]], %[[S]], %[[O]]) {epsilon = 1e-5 : f32, feature_index = 2 : i64} : (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) <{epsilon = 1.0e-05 : f32, feature_index = 2 : i64}> : (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: "func.return"(%[[T]]#0, %[[T]]#1, %[[T]]#2)
  return %0#0, %0#1, %0#2 : tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @batch_norm_grad
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf32>, %[[V:.*]]: tensor<3xf32>, %[[G:.*]]: tensor<2x3xf32>)
func.func @batch_norm_grad(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %g: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[D:.*]]:3 = "xla.batch_norm_grad"(%[[X]], %[[S]], %[[M]], %[[V]], %[[G]]) {epsilon = 0.5 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %g) <{epsilon = 0.5 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  // CHECK: "func.return"(%[[D]]#0, %[[D]]#1, %[[D]]#2)
  return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
}
