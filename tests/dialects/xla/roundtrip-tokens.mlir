// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of tokens and transfers: after_all, send, recv, infeed and outfeed.

// CHECK-LABEL: func.func @after_all
// CHECK-SAME: (%[[T0:.*]]: !stablehlo.token, %[[T1:.*]]: !stablehlo.token)
func.func @after_all(%t0: !stablehlo.token, %t1: !stablehlo.token) -> (!stablehlo.token, !stablehlo.token) {
  // CHECK: %[[J:.*]] = "xla.after_all"(%[[T0]], %[[T1]]) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
  %0 = stablehlo.after_all %t0, %t1 : !stablehlo.token
  // With no operands: a fresh token.
  // CHECK: %[[F:.*]] = "xla.after_all"() : () -> !stablehlo.token
  %1 = stablehlo.after_all : !stablehlo.token
  // CHECK: "func.return"(%[[J]], %[[F]])
  return %0, %1 : !stablehlo.token, !stablehlo.token
}

// CHECK-LABEL: func.func @send_recv
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[T:.*]]: !stablehlo.token)
func.func @send_recv(%x: tensor<2xf32>, %t: !stablehlo.token) -> (tensor<2xf32>, !stablehlo.token) {
  // CHECK: %[[S:.*]] = "xla.send"(%[[X]], %[[T]]) {channel_handle = #stablehlo.channel_handle<handle = 1 : i64, type = 2 : i64>, is_host_transfer = false} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %0 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = false}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: %[[R:.*]]:2 = "xla.recv"(%[[S]]) {channel_handle = #stablehlo.channel_handle<handle = 1 : i64, type = 3 : i64>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = false}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  // CHECK: "func.return"(%[[R]]#0, %[[R]]#1)
  return %1#0, %1#1 : tensor<2xf32>, !stablehlo.token
}

// CHECK-LABEL: func.func @infeed_outfeed
// CHECK-SAME: (%[[T:.*]]: !stablehlo.token)
func.func @infeed_outfeed(%t: !stablehlo.token) -> !stablehlo.token {
  // CHECK: %[[I:.*]]:2 = "xla.infeed"(%[[T]]) {infeed_config = "in", layout = {{\[\[}}0 : i64]]} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
  %0:2 = "stablehlo.infeed"(%t) <{infeed_config = "in", layout = [[0]]}> : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
  // CHECK: %[[O:.*]] = "xla.outfeed"(%[[I]]#0, %[[I]]#1) {outfeed_config = "out"} : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
  %1 = "stablehlo.outfeed"(%0#0, %0#1) <{outfeed_config = "out"}> : (tensor<3xi32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "func.return"(%[[O]])
  return %1 : !stablehlo.token
}
