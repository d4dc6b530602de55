// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// Collectives are runtime calls, declared from strata_abi::runtime: a
// one-operand all_reduce with a known reducer is strata_rt_all_reduce with
// its group descriptor, the reducer (ReduceOp: 0 sum), the element code
// (ElemCode: 11 f32) and the count; its status result is checked by codegen
// (the signature says it is a status). replica_id reads the device's id.

// CHECK: func.func private @strata_rt_replica_id() -> ui32{{$}}
// CHECK: func.func private @strata_rt_all_reduce(memref<0xi8>, i32, i32, memref<0xi8>, memref<0xi8>, i64) -> i32{{$}}
// CHECK: "mem.global"() {sym_name = "[[G:.*]]", value = dense<[0, 0, 0, 1, 2, 0, 1, 0,
// CHECK-LABEL: func.func @all_reduce
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[G]]}
// CHECK: %[[OP:.*]] = "arith.constant"() {value = 0 : i32}
// CHECK: %[[EL:.*]] = "arith.constant"() {value = 11 : i32}
// CHECK: %[[N:.*]] = "arith.constant"() {value = 4 : i64}
// CHECK: "func.call"(%[[D]], %[[OP]], %[[EL]], %arg0, %arg1, %[[N]]) {callee = @strata_rt_all_reduce}
// CHECK-LABEL: func.func @replica
// CHECK: %[[ID:.*]] = "func.call"() {callee = @strata_rt_replica_id} : () -> ui32
// CHECK: "mem.store"(%[[ID]], %arg0)

module attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
func.func @all_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @replica() -> tensor<ui32> {
  %0 = stablehlo.replica_id : tensor<ui32>
  return %0 : tensor<ui32>
}
}
