// RUN: strata opt %s --split-input-file --xla-expand-batch-norm | FileCheck %s

// batch_norm_inference becomes y = scale * (x - mean) / sqrt(var + eps) + offset, the
// per-feature vectors broadcast along feature_index, eps rounded to f32.

// CHECK-LABEL: func.func @inference
// CHECK-NOT: batch_norm
// CHECK: %[[MB:.*]] = "xla.broadcast_in_dim"(%arg3) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[C:.*]] = "xla.subtract"(%arg0, %[[MB]])
// CHECK: %[[EPS:.*]] = "xla.constant"() {value = dense<0.001> : tensor<3xf32>}
// CHECK: %[[VE:.*]] = "xla.add"(%arg4, %[[EPS]])
// CHECK: %[[SD:.*]] = "xla.sqrt"(%[[VE]])
// CHECK: "xla.divide"(%[[C]],
// CHECK: "xla.multiply"
// CHECK: %[[Y:.*]] = "xla.add"
// CHECK: "func.return"(%[[Y]])
func.func @inference(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) <{epsilon = 0.001 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// batch_norm_training: the mean and variance are sums over every dimension but the
// feature one, divided by the 8 elements per feature.

// CHECK-LABEL: func.func @training
// CHECK-NOT: batch_norm
// CHECK: %[[S:.*]] = "xla.reduce"(%arg0, %{{.*}}) ({
// CHECK: "xla.add"
// CHECK: }) {dimensions = array<i64: 0, 1>} : (tensor<2x4x3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: %[[N:.*]] = "xla.constant"() {value = dense<8.0> : tensor<3xf32>}
// CHECK: %[[MEAN:.*]] = "xla.divide"(%[[S]], %[[N]])
// CHECK: "func.return"(%{{.*}}, %[[MEAN]], %{{.*}})
func.func @training(%x: tensor<2x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) <{epsilon = 0.001 : f32, feature_index = 2 : i64}> : (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x4x3xf32>, tensor<3xf32>, tensor<3xf32>
}
