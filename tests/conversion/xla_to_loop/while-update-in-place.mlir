// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// A dynamic_update_slice of a while's state that nothing reads afterwards
// (a KV cache's new row) writes into the state buffer itself: no copy of
// the whole cache per iteration, and none at the yield.
// CHECK-LABEL: func.func @cache
// CHECK: %[[STATE:.*]] = "mem.alloc"() : () -> memref<8x4xf32>
// CHECK: "mem.copy"(%arg0, %[[STATE]])
// CHECK: "loop.while"
// CHECK: "loop.condition"
// CHECK-NOT: "mem.copy"
// CHECK: "mem.store"(%{{.*}}, %[[STATE]], %{{.*}}, %{{.*}}) : (f32, memref<8x4xf32>, index, index)
// CHECK-NOT: memref<8x4xf32>) -> ()
// CHECK: "loop.yield"
func.func @cache(%c0: tensor<8x4xf32>, %row: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<8> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %c = %c0) : tensor<i32>, tensor<8x4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %u = stablehlo.dynamic_update_slice %c, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %u : tensor<i32>, tensor<8x4xf32>
    }
  return %r#1 : tensor<8x4xf32>
}

// An update read from the state itself (a row shifted up) keeps the copy:
// writing in place would read rows already overwritten.
// CHECK-LABEL: func.func @shift
// CHECK: "loop.while"
// CHECK: "loop.condition"
// CHECK: %[[FRESH:.*]] = "mem.alloc"() : () -> memref<8x4xf32>
// CHECK: "mem.copy"(%{{.*}}, %[[FRESH]])
func.func @shift(%c0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %c = %c0) : tensor<i32>, tensor<8x4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %tail = stablehlo.slice %c [1:8, 0:4] : (tensor<8x4xf32>) -> tensor<7x4xf32>
      %u = stablehlo.dynamic_update_slice %c, %tail, %z, %z : (tensor<8x4xf32>, tensor<7x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %u : tensor<i32>, tensor<8x4xf32>
    }
  return %r#1 : tensor<8x4xf32>
}

// The old state also returned (read at the yield) keeps the copy.
// CHECK-LABEL: func.func @old_state_returned
// CHECK: "loop.condition"
// CHECK: %[[FRESH:.*]] = "mem.alloc"() : () -> memref<8x4xf32>
// CHECK: "mem.copy"(%{{.*}}, %[[FRESH]])
func.func @old_state_returned(%c0: tensor<8x4xf32>, %row: tensor<1x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<8> : tensor<i32>
  %r:3 = stablehlo.while(%i = %zero, %c = %c0, %prev = %c0) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %u = stablehlo.dynamic_update_slice %c, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %u, %c : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
    }
  return %r#1, %r#2 : tensor<8x4xf32>, tensor<8x4xf32>
}

// A state value also named by an optimization barrier keeps the copy: the
// barrier's result reads the old state after the update.
// CHECK-LABEL: func.func @barrier_alias
// CHECK: "loop.condition"
// CHECK: %[[FRESH:.*]] = "mem.alloc"() : () -> memref<8x4xf32>
// CHECK: "mem.copy"(%{{.*}}, %[[FRESH]])
func.func @barrier_alias(%c0: tensor<8x4xf32>, %row: tensor<1x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<8> : tensor<i32>
  %r:3 = stablehlo.while(%i = %zero, %c = %c0, %acc = %c0) : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %y = stablehlo.optimization_barrier %c : tensor<8x4xf32>
      %u = stablehlo.dynamic_update_slice %c, %row, %i, %z : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
      %a = stablehlo.add %acc, %y : tensor<8x4xf32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %u, %a : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
    }
  return %r#1, %r#2 : tensor<8x4xf32>, tensor<8x4xf32>
}
