// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the collectives and the device-id ops, in the generic form JAX prints.

// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @all_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = "xla.all_reduce"(%[[X]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[S:.*]] = "xla.add"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[S]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {channel_handle = #stablehlo.channel_handle<handle = 1 : i64, type = 1 : i64>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @collective_reduce
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @collective_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.*]] = "xla.collective_reduce"(%[[X]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[M:.*]] = "xla.maximum"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[M]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "stablehlo.collective_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @all_gather
// CHECK-SAME: (%[[X:.*]]: tensor<1x3xf32>)
func.func @all_gather(%x: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[G:.*]] = "xla.all_gather"(%[[X]]) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2 : i64, type = 1 : i64>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<1x3xf32>) -> tensor<2x3xf32>
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
  // CHECK: "func.return"(%[[G]])
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @reduce_scatter
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @reduce_scatter(%x: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = "xla.reduce_scatter"(%[[X]]) ({
  // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT: %[[S:.*]] = "xla.add"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: "xla.return"(%[[S]]) : (tensor<f32>) -> ()
  // CHECK-NEXT: }) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} : (tensor<4xf32>) -> tensor<2xf32>
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<2xf32>
  // CHECK: "func.return"(%[[R]])
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @all_to_all
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
func.func @all_to_all(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
  // CHECK: %[[T:.*]] = "xla.all_to_all"(%[[X]]) {concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
  // CHECK: "func.return"(%[[T]])
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @collective_permute
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
func.func @collective_permute(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: %[[P:.*]] = "xla.collective_permute"(%[[X]]) {channel_handle = #stablehlo.channel_handle<handle = 1 : i64, type = 1 : i64>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "func.return"(%[[P]])
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @collective_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[ROOT:.*]]: tensor<1xi32>)
func.func @collective_broadcast(%x: tensor<3xf32>, %root: tensor<1xi32>) -> (tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[B:.*]] = "xla.collective_broadcast"(%[[X]]) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<3xf32>) -> tensor<3xf32>
  // Strata's dynamic root: a last operand names the group position to take.
  // CHECK: %[[D:.*]] = "xla.collective_broadcast"(%[[X]], %[[ROOT]]) {has_dynamic_root, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>, tensor<1xi32>) -> tensor<3xf32>
  %1 = "xla.collective_broadcast"(%x, %root) {has_dynamic_root, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>, tensor<1xi32>) -> tensor<3xf32>
  // CHECK: "func.return"(%[[B]], %[[D]])
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @device_ids
func.func @device_ids() -> (tensor<ui32>, tensor<ui32>) {
  // CHECK: %[[R:.*]] = "xla.replica_id"() : () -> tensor<ui32>
  %0 = stablehlo.replica_id : tensor<ui32>
  // CHECK: %[[P:.*]] = "xla.partition_id"() : () -> tensor<ui32>
  %1 = stablehlo.partition_id : tensor<ui32>
  // CHECK: "func.return"(%[[R]], %[[P]])
  return %0, %1 : tensor<ui32>, tensor<ui32>
}
