// RUN: strata opt %s --split-input-file --xla-recognize-composites | FileCheck %s

// JAX's lax.top_k: the composite becomes xla.top_k with its k; the
// decomposition (a sort of the whole row) is no longer called.

// CHECK-LABEL: func.func @top_k(
// CHECK: %[[T:.*]]:2 = "xla.top_k"(%arg0) {k = 3 : i64} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK-NOT: xla.composite
// CHECK: "func.return"(%[[T]]#0, %[[T]]#1)
func.func @top_k(%arg0: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {k = 3 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}
func.func private @chlo.top_k.impl(%arg0: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<2x8xi32>
  %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %4 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  }) : (tensor<2x8xf32>, tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>)
  %2 = stablehlo.slice %1#0 [0:2, 0:3] : (tensor<2x8xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.slice %1#1 [0:2, 0:3] : (tensor<2x8xi32>) -> tensor<2x3xi32>
  return %2, %3 : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Composites that xla.top_k cannot express keep calling their
// decomposition: another name; k missing; results of another shape.

// CHECK-LABEL: func.func @others(
// CHECK-NOT: xla.top_k
// CHECK-COUNT-3: "xla.composite"
// CHECK-NOT: xla.top_k
func.func @others(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<3xf32>, tensor<3xi32>, tensor<2xf32>, tensor<2xi32>) {
  %0 = stablehlo.composite "my.op" %arg0 {composite_attributes = {k = 3 : i64}, decomposition = @id} : (tensor<8xf32>) -> tensor<8xf32>
  %1:2 = stablehlo.composite "chlo.top_k" %arg0 {decomposition = @top3} : (tensor<8xf32>) -> (tensor<3xf32>, tensor<3xi32>)
  %2:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {k = 3 : i64}, decomposition = @top2} : (tensor<8xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %0, %1#0, %1#1, %2#0, %2#1 : tensor<8xf32>, tensor<3xf32>, tensor<3xi32>, tensor<2xf32>, tensor<2xi32>
}
func.func private @id(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @top3(%arg0: tensor<8xf32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %0 = stablehlo.slice %arg0 [0:3] : (tensor<8xf32>) -> tensor<3xf32>
  %1 = stablehlo.iota dim = 0 : tensor<3xi32>
  return %0, %1 : tensor<3xf32>, tensor<3xi32>
}
func.func private @top2(%arg0: tensor<8xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0 = stablehlo.slice %arg0 [0:2] : (tensor<8xf32>) -> tensor<2xf32>
  %1 = stablehlo.iota dim = 0 : tensor<2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2xi32>
}
