// RUN: strata opt %s --split-input-file --xla-expand-manual-computation | FileCheck %s

// A manual computation over a one-axis mesh of 2 devices: the body becomes
// @main_device; @main slices the sharded operand per device, runs both
// devices as partitions, and concatenates the sharded result (the
// replicated one comes from device 0). The mesh is removed.

// CHECK-NOT: xla.mesh
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[W:.*]]: tensor<3xf32>)
// CHECK: %[[S0:.*]] = "xla.slice"(%[[X]]) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>}
// CHECK: %[[S1:.*]] = "xla.slice"(%[[X]]) {start_indices = array<i64: 2, 0>, limit_indices = array<i64: 4, 3>, strides = array<i64: 1, 1>}
// CHECK: %[[R:.*]]:4 = "xla.run_parallel"(%[[S0]], %[[W]], %[[S1]], %[[W]]) {programs = {{\[\[}}@main_device, @main_device]]}
// CHECK: %[[C:.*]] = "xla.concatenate"(%[[R]]#0, %[[R]]#2) {dimension = 0 : i64}
// CHECK: "func.return"(%[[C]], %[[R]]#1)
// CHECK-LABEL: func.func @main_device
// CHECK-SAME: (%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
// CHECK: "xla.all_reduce"
// CHECK: "func.return"
module attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["i"=2]>
  func.func public @main(%x: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}, %w: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
    %0:2 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{}]>] manual_axes={"i"} (%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
      %s = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%p: tensor<f32>, %q: tensor<f32>):
        %t = stablehlo.add %p, %q : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<3xf32>) -> tensor<3xf32>
      sdy.return %a, %s : tensor<2x3xf32>, tensor<3xf32>
    } : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<4x3xf32>, tensor<3xf32>
  }
}
