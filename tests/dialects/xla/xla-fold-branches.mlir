// RUN: strata opt %s --split-input-file --xla-fold-branches | FileCheck %s

// A case on a constant is its branch: the branch's ops take its place and
// its results are the values the branch returns. A case whose index is the
// result of a folded one folds too (JAX's platform index selects a
// lowering rule's index, which selects the code).

// CHECK-LABEL: func.func @platform(
// CHECK-NOT: xla.case
// CHECK: %[[N:.*]] = "xla.negate"(%arg0)
// CHECK-NOT: xla.case
// CHECK-NOT: xla.abs
// CHECK: "func.return"(%[[N]])
func.func @platform(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %p = stablehlo.constant dense<0> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %rule = "stablehlo.case"(%p) ({
    stablehlo.return %c1 : tensor<i32>
  }, {
    stablehlo.return %c0 : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  %0 = "stablehlo.case"(%rule) ({
    %1 = stablehlo.abs %arg0 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }, {
    %1 = stablehlo.negate %arg0 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An index out of range selects the last branch, as StableHLO says.

// CHECK-LABEL: func.func @out_of_range(
// CHECK-NEXT: "xla.constant"
// CHECK-NEXT: %[[A:.*]] = "xla.abs"(%arg0)
// CHECK-NEXT: "func.return"(%[[A]])
func.func @out_of_range(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %p = stablehlo.constant dense<-3> : tensor<i32>
  %0 = "stablehlo.case"(%p) ({
    %1 = stablehlo.negate %arg0 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }, {
    %1 = stablehlo.abs %arg0 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// `if` on a constant false runs its second region; an `if` on a value
// computed at run time stays.

// CHECK-LABEL: func.func @conditions(
// CHECK-NOT: "xla.negate"
// CHECK: %[[E:.*]] = "xla.exponential"(%arg0)
// CHECK: "xla.if"(%arg1)
// CHECK: "func.return"(%[[E]], %{{.*}})
func.func @conditions(%arg0: tensor<4xf32>, %arg1: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f = stablehlo.constant dense<false> : tensor<i1>
  %0 = "stablehlo.if"(%f) ({
    %1 = stablehlo.negate %arg0 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }, {
    %1 = stablehlo.exponential %arg0 : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  %2 = "stablehlo.if"(%arg1) ({
    stablehlo.return %arg0 : tensor<4xf32>
  }, {
    stablehlo.return %0 : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}
