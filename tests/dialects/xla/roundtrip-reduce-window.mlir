// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the windowed reductions: reduce_window and select_and_scatter.

// Max pooling with every window attribute given.
// CHECK-LABEL: func.func @reduce_window_max
// CHECK-SAME: (%[[A:.*]]: tensor<4x6xf32>, %[[Z:.*]]: tensor<f32>)
func.func @reduce_window_max(%a: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.*]] = "xla.reduce_window"(%[[A]], %[[Z]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[M:.*]] = "xla.maximum"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[M]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 0], [1, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = "stablehlo.reduce_window"(%a, %z) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<2x3xf32>
}

// Two inputs reduced together; only window_dimensions given.
// CHECK-LABEL: func.func @reduce_window_pair
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xi32>, %[[Z:.*]]: tensor<f32>, %[[ZI:.*]]: tensor<i32>)
func.func @reduce_window_pair(%a: tensor<4xf32>, %b: tensor<4xi32>, %z: tensor<f32>, %zi: tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  // CHECK: %[[R:.*]]:2 = "xla.reduce_window"(%[[A]], %[[B]], %[[Z]], %[[ZI]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[P:.*]]: tensor<i32>, %[[Y:.*]]: tensor<f32>, %[[Q:.*]]: tensor<i32>):
  // CHECK-NEXT: %[[S:.*]] = "xla.add"(%[[X]], %[[Y]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: %[[T:.*]] = "xla.add"(%[[P]], %[[Q]]) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // CHECK-NEXT: "xla.return"(%[[S]], %[[T]]) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT: }) {window_dimensions = array<i64: 2>} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  %0:2 = "stablehlo.reduce_window"(%a, %b, %z, %zi) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %p: tensor<i32>, %y: tensor<f32>, %q: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    %t = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s, %t : tensor<f32>, tensor<i32>
  }) : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  // CHECK: "func.return"(%[[R]]#0, %[[R]]#1)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
}

// The gradient of max pooling: a select region, then a scatter region.
// CHECK-LABEL: func.func @select_and_scatter
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<2xf32>, %[[Z:.*]]: tensor<f32>)
func.func @select_and_scatter(%a: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = "xla.select_and_scatter"(%[[A]], %[[S]], %[[Z]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[GE:.*]] = "xla.compare"(%[[X]], %[[Y]]) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  // CHECK-NEXT: "xla.return"(%[[GE]]) : (tensor<i1>) -> ()
  // CHECK-NEXT: }, {
  // CHECK-NEXT: ^{{.*}}(%[[U:.*]]: tensor<f32>, %[[V:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[SUM:.*]] = "xla.add"(%[[U]], %[[V]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[SUM]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {padding = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<4xf32>
}
