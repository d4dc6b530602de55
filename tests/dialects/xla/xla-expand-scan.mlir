// RUN: strata opt %s --xla-expand-scan | FileCheck %s

// A scan becomes a while over the scanned dimension: state (i, carries,
// outputs), slice j of the input (from the end: j = length - 1 - i), the
// body copied in, the output slice written at j.

// CHECK-LABEL: func.func @reverse_cumsum
// CHECK-NOT: xla.scan
// CHECK: %[[W:.*]]:3 = "xla.while"(%{{.*}}, %arg1, %{{.*}}) ({
// CHECK: ^{{.*}}(%[[I:.*]]: tensor<i64>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<4xi32>):
// CHECK: "xla.compare"(%[[I]], %{{.*}}) {comparison_direction = #stablehlo<comparison_direction LT>}
// CHECK: }, {
// CHECK: ^{{.*}}(%[[BI:.*]]: tensor<i64>, %[[C:.*]]: tensor<i32>, %[[ACC:.*]]: tensor<4xi32>):
// CHECK: %[[LAST:.*]] = "xla.constant"() {value = dense<3> : tensor<i64>}
// CHECK: %[[J:.*]] = "xla.subtract"(%[[LAST]], %[[BI]])
// CHECK: %[[S:.*]] = "xla.dynamic_slice"(%arg0, %[[J]]) {slice_sizes = array<i64: 1>}
// CHECK: %[[X:.*]] = "xla.reshape"(%[[S]]) : (tensor<1xi32>) -> tensor<i32>
// CHECK: %[[SUM:.*]] = "xla.add"(%[[X]], %[[C]])
// CHECK: "xla.dynamic_update_slice"(%[[ACC]], %{{.*}}, %[[J]])
// CHECK: "func.return"(%[[W]]#2, %[[W]]#1)
func.func @reverse_cumsum(%input: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 attributes {is_reverse = true} {
  ^bb0(%x: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %x, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}
