// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// rng_bit_generator and rng_get_and_update_state are runtime calls (XLA:CPU's
// Philox and ThreeFry, bit for bit; the process's Philox state) with a
// constant descriptor: strata_abi::RngDesc is (rank, 16 dimensions, element
// bytes, state words), RngStateDesc the delta. The state operand, the new
// state and the bits are buffers.

// CHECK: func.func private @strata_rt_rng_get_and_update_state(memref<0xi8>, memref<0xi8>){{$}}
// CHECK: "mem.global"() {sym_name = "[[S:.*]]", value = dense<[8]> : tensor<1xi64>}
// CHECK: func.func private @strata_rt_rng_three_fry(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>){{$}}
// CHECK: "mem.global"() {sym_name = "[[T:.*]]", value = dense<[1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 2]> : tensor<19xi64>}
// CHECK: func.func private @strata_rt_rng_philox(memref<0xi8>, memref<0xi8>, memref<0xi8>, memref<0xi8>){{$}}
// CHECK: "mem.global"() {sym_name = "[[P:.*]]", value = dense<[2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 2]> : tensor<19xi64>}
// CHECK-LABEL: func.func @philox
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[P]]}
// CHECK-NEXT: "func.call"(%[[D]], %arg0, %arg1, %arg2) {callee = @strata_rt_rng_philox}
// CHECK-LABEL: func.func @three_fry
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[T]]}
// CHECK-NEXT: "func.call"(%[[D]], %arg0, %arg1, %arg2) {callee = @strata_rt_rng_three_fry}
// CHECK-LABEL: func.func @state
// CHECK: %[[D:.*]] = "mem.get_global"() {name = @[[S]]}
// CHECK-NEXT: "func.call"(%[[D]], %arg0) {callee = @strata_rt_rng_get_and_update_state}

func.func @philox(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4xui32>) {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x4xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<3x4xui32>
}
func.func @three_fry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui64>) {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui64>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<8xui64>
}
func.func @state() -> tensor<2xui64> {
  %0 = "xla.rng_get_and_update_state"() {delta = 8 : i64} : () -> tensor<2xui64>
  return %0 : tensor<2xui64>
}
