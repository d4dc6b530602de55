// RUN: strata opt %s --split-input-file --xla-cse | FileCheck %s

// Layer norm after inlining `@_var`: the mean is computed twice (a full
// pass over the input each). The second reduce, its broadcast and the
// subtraction repeat the first ones and go; the constant too.

// CHECK-LABEL: func.func @layer_norm_mean
// CHECK: %[[Z:.*]] = "xla.constant"
// CHECK: %[[M:.*]] = "xla.reduce"(%arg0, %[[Z]])
// CHECK: %[[B:.*]] = "xla.broadcast_in_dim"(%[[M]])
// CHECK: %[[D:.*]] = "xla.subtract"(%arg0, %[[B]])
// CHECK-NOT: "xla.reduce"(%arg0
// CHECK: %[[SQ:.*]] = "xla.multiply"(%[[D]], %[[D]])
// CHECK: "xla.reduce"(%[[SQ]], %[[Z]])
func.func @layer_norm_mean(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %b = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %d = stablehlo.subtract %x, %b : tensor<8x16xf32>
  %z2 = stablehlo.constant dense<0.0> : tensor<f32>
  %m2 = stablehlo.reduce(%x init: %z2) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %b2 = stablehlo.broadcast_in_dim %m2, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %d2 = stablehlo.subtract %x, %b2 : tensor<8x16xf32>
  %sq = stablehlo.multiply %d2, %d2 : tensor<8x16xf32>
  %v = stablehlo.reduce(%sq init: %z2) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %d, %v : tensor<8x16xf32>, tensor<8xf32>
}

// -----

// Different regions (a sum and a max), attributes or types keep both ops.

// CHECK-LABEL: func.func @different
// CHECK: "xla.reduce"
// CHECK: "xla.reduce"
// CHECK: "xla.compare"
// CHECK: "xla.compare"
// CHECK: "xla.convert"
// CHECK: "xla.convert"
func.func @different(%x: tensor<8xf32>) -> (tensor<f32>, tensor<f32>, tensor<8xi1>, tensor<8xi1>, tensor<8xi32>, tensor<8xi64>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %m = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  %lt = stablehlo.compare LT, %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %gt = stablehlo.compare GT, %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %i = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xi32>
  %l = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xi64>
  return %s, %m, %lt, %gt, %i, %l : tensor<f32>, tensor<f32>, tensor<8xi1>, tensor<8xi1>, tensor<8xi32>, tensor<8xi64>
}

// -----

// Ops with effects are never merged: two custom calls, two RNG draws.
// An op inside a loop body is not merged with one outside it.

// CHECK-LABEL: func.func @effects
// CHECK: "xla.custom_call"
// CHECK: "xla.custom_call"
// CHECK: "xla.rng"
// CHECK: "xla.rng"
// CHECK: "xla.negate"(%arg0)
// CHECK: "xla.while"
// CHECK: "xla.negate"(%arg0)
func.func @effects(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>) {
  %a = stablehlo.custom_call @my_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = stablehlo.custom_call @my_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %shape = stablehlo.constant dense<4> : tensor<1xi64>
  %r1 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  %r2 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  %n = stablehlo.negate %x : tensor<4xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %k = stablehlo.constant dense<2> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %n2 = stablehlo.negate %x : tensor<4xf32>
      %s = stablehlo.add %v, %n2 : tensor<4xf32>
      stablehlo.return %j, %s : tensor<i32>, tensor<4xf32>
    }
  return %a, %b, %r1, %r2, %n, %w#0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>
}
