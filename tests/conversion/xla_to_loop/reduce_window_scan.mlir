// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// A reduce_window whose window covers its dimension, padded by n - 1 below
// (JAX's cumsum), is a running fold: element 0 is init + x[0], then each
// element is the previous result + x[i] (one pass, not a window per
// element). Parallel over the rows.

// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.*]]: memref<4x16xf32>, %[[OUT:.*]]: memref<4x16xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[R:.*]]: index):
// CHECK: %[[Z:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[X0:.*]] = "mem.load"(%[[X]], %[[R]], %[[Z]])
// CHECK: %[[F0:.*]] = "arith.addf"(%{{.*}}, %[[X0]])
// CHECK: "mem.store"(%[[F0]], %[[OUT]], %[[R]], %[[Z]])
// CHECK: %[[ONE:.*]] = "arith.constant"() {value = 1 : index}
// CHECK: %[[N:.*]] = "arith.constant"() {value = 16 : index}
// CHECK: "loop.for"(%[[ONE]], %[[N]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[P:.*]] = "arith.subi"(%[[I]], %{{.*}})
// CHECK: %[[PREV:.*]] = "mem.load"(%[[OUT]], %[[R]], %[[P]])
// CHECK: %[[XI:.*]] = "mem.load"(%[[X]], %[[R]], %[[I]])
// CHECK: %[[S:.*]] = "arith.addf"(%[[PREV]], %[[XI]])
// CHECK: "mem.store"(%[[S]], %[[OUT]], %[[R]], %[[I]])
// CHECK-NOT: "mem.alloca"
// CHECK: {parallel}
func.func @cumsum(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
  %1 = "stablehlo.reduce_window"(%x, %0) <{padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 16>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// Reversed (padded above, lax.cummax(reverse=True)) along the first axis:
// the fold starts at the last row and runs up; the columns are the inner
// loop.

// CHECK-LABEL: func.func @cummax_reverse
// CHECK-SAME: (%[[X:.*]]: memref<8x3xi32>, %[[OUT:.*]]: memref<8x3xi32>)
// CHECK: %[[LAST:.*]] = "arith.constant"() {value = 7 : index}
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[C:.*]]: index):
// CHECK: "mem.load"(%[[X]], %[[LAST]], %[[C]])
// CHECK: "arith.maxsi"
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[T:.*]]: index):
// CHECK: %[[I:.*]] = "arith.subi"(%{{.*}}, %[[T]])
// CHECK: %[[P:.*]] = "arith.addi"(%[[I]], %{{.*}})
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[C2:.*]]: index):
// CHECK: "mem.load"(%[[OUT]], %[[P]], %[[C2]])
// CHECK: "mem.load"(%[[X]], %[[I]], %[[C2]])
// CHECK: "arith.maxsi"
func.func @cummax_reverse(%x: tensor<8x3xi32>) -> tensor<8x3xi32> {
  %init = stablehlo.constant dense<-2147483648> : tensor<i32>
  %1 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 7], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 8, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %2 = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }) : (tensor<8x3xi32>, tensor<i32>) -> tensor<8x3xi32>
  return %1 : tensor<8x3xi32>
}

// -----

// An init the padding would fold in more than once (a sum starting at 1)
// keeps the window per element: its accumulator, and the window loop.

// CHECK-LABEL: func.func @sum_from_one
// CHECK: "mem.alloca"
// CHECK: %[[W:.*]] = "arith.constant"() {value = 16 : index}
// CHECK: "loop.for"(%{{.*}}, %[[W]], %{{.*}})
func.func @sum_from_one(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %1 = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 16>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}

// -----

// A reducer written out in several ops (lax.cumlogsumexp's logaddexp from
// -inf): its init is an identity by the reduction's contract, so the
// running fold is taken too: element i folds the previous result with
// x[i], no window loop and no accumulator.

// CHECK-LABEL: func.func @cumlogsumexp
// CHECK-SAME: (%[[X:.*]]: memref<2x64xf32>, %[[OUT:.*]]: memref<2x64xf32>)
// CHECK-NOT: "mem.alloca"
// CHECK: %[[N:.*]] = "arith.constant"() {value = 64 : index}
// CHECK: "loop.for"(%{{.*}}, %[[N]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[P:.*]] = "arith.subi"(%[[I]], %{{.*}})
// CHECK: "mem.load"(%[[OUT]], %{{.*}}, %[[P]])
// CHECK: "mem.load"(%[[X]], %{{.*}}, %[[I]])
// CHECK: "arith.maximumf"
// CHECK: "arith.log1p"
// CHECK-NOT: "loop.for"
// CHECK: "mem.store"
func.func @cumlogsumexp(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    %2 = stablehlo.subtract %a, %b : tensor<f32>
    %3 = stablehlo.compare NE, %2, %2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.add %a, %b : tensor<f32>
    %5 = stablehlo.abs %2 : tensor<f32>
    %6 = stablehlo.negate %5 : tensor<f32>
    %7 = stablehlo.exponential %6 : tensor<f32>
    %8 = stablehlo.log_plus_one %7 : tensor<f32>
    %9 = stablehlo.add %1, %8 : tensor<f32>
    %10 = stablehlo.select %3, %4, %9 : tensor<i1>, tensor<f32>
    stablehlo.return %10 : tensor<f32>
  }) : (tensor<2x64xf32>, tensor<f32>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}
