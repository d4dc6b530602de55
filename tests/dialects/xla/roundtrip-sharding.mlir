// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of Shardy's mesh and manual_computation and the interpreter's run_parallel.

// CHECK-LABEL: module attributes {mhlo.num_partitions = 2 : i32}
module attributes {mhlo.num_partitions = 2 : i32} {
  // CHECK: "xla.mesh"() {sym_name = "mesh", axes = ["i", "j"], sizes = array<i64: 2, 1>} : () -> ()
  sdy.mesh @mesh = <["i"=2, "j"=1]>

  // CHECK-LABEL: func.func @manual
  // CHECK-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[W:.*]]: tensor<3xf32>)
  // CHECK-SAME: attributes {arg_attrs = [{sdy.sharding = #sdy.sharding<mesh = @mesh, dims = {{\[\["i"\], \[\]\]}}>}, {}]}
  func.func public @manual(%x: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}, %w: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
    // CHECK: %[[M:.*]]:2 = "xla.manual_computation"(%[[X]], %[[W]]) ({
    // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>):
    // CHECK-NEXT: %[[N:.*]] = "xla.negate"(%[[B]]) : (tensor<3xf32>) -> tensor<3xf32>
    // CHECK-NEXT: "xla.return"(%[[A]], %[[N]]) : (tensor<2x3xf32>, tensor<3xf32>) -> ()
    // CHECK-NEXT: }) {in_shardings = [#sdy.sharding<mesh = @mesh, dims = {{\[\["i"\], \[\]\]}}>, #sdy.sharding<mesh = @mesh, dims = {{\[\[\]\]}}>],
    // CHECK-SAME: out_shardings = [#sdy.sharding<mesh = @mesh, dims = {{\[\["i"\], \[\]\]}}>, #sdy.sharding<mesh = @mesh, dims = {{\[\[\]\]}}>], manual_axes = ["i"]}
    // CHECK-SAME: : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
    %0:2 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{}]>] manual_axes={"i"} (%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
      %n = stablehlo.negate %b : tensor<3xf32>
      sdy.return %a, %n : tensor<2x3xf32>, tensor<3xf32>
    } : (tensor<4x3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
    // CHECK: "func.return"(%[[M]]#0, %[[M]]#1)
    return %0#0, %0#1 : tensor<4x3xf32>, tensor<3xf32>
  }

  func.func private @r0p0() { return }
  func.func private @r0p1() { return }
  func.func private @r1p0() { return }
  func.func private @r1p1() { return }

  // One row of programs per replica, one column per partition.
  // CHECK-LABEL: func.func @run
  func.func @run() {
    // CHECK: "xla.run_parallel"() {programs = {{\[\[}}@r0p0, @r0p1], [@r1p0, @r1p1]]} : () -> ()
    "interpreter.run_parallel"() {programs = [[@r0p0, @r0p1], [@r1p0, @r1p1]]} : () -> ()
    return
  }
}
