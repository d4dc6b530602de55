// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// A dynamic_update_slice of a while's state that nothing reads afterwards
// (a KV cache's new row) writes into the state buffer itself: no copy of
// the whole cache per iteration, and none at the yield. (The state is the
// output buffer %arg2 itself, the slot being returned: see
// control-flow.mlir.)
// CHECK-LABEL: func.func @cache
// CHECK: "mem.copy"(%arg0, %arg2)
// CHECK: "loop.while"
// CHECK: "loop.condition"
// CHECK-NOT: "mem.copy"
// CHECK: "mem.store"(%{{.*}}, %arg2, %{{.*}}, %{{.*}}) : (f32, memref<8x4xf32>, index, index)
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

// An update read from the state itself (rows shifted up) is computed into
// a buffer of its own first, then written in place: the update loop would
// otherwise read rows it has already overwritten.
// CHECK-LABEL: func.func @shift
// CHECK: "loop.condition"
// CHECK: %[[ROWS:.*]] = "mem.alloc"() : () -> memref<7x4xf32>
// CHECK: "mem.store"(%{{.*}}, %[[ROWS]],
// CHECK-NOT: "mem.copy"
// CHECK: "mem.store"(%{{.*}}, %arg1,
// CHECK: "mem.dealloc"(%[[ROWS]])
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

// A scatter into the state (rows of a table a loop adds to) is made in
// place too: the table is not copied per step.
// CHECK-LABEL: func.func @scatter_rows
// CHECK: "mem.copy"(%arg0, %arg2)
// CHECK: "loop.condition"
// CHECK-NOT: "mem.copy"(%{{.*}}) : (memref<100x4xf32>
// CHECK-NOT: "mem.alloc"() : () -> memref<100x4xf32>
// CHECK: "mem.store"(%{{.*}}, %arg2,
// CHECK: "loop.yield"
func.func @scatter_rows(%t0: tensor<100x4xf32>, %rows: tensor<3x1xi32>) -> tensor<100x4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<8> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %t = %t0) : tensor<i32>, tensor<100x4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %u = stablehlo.constant dense<1.0> : tensor<3x4xf32>
      %s = "stablehlo.scatter"(%t, %rows, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %sum : tensor<f32>
      }) : (tensor<100x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<100x4xf32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %s : tensor<i32>, tensor<100x4xf32>
    }
  return %r#1 : tensor<100x4xf32>
}

// Outside loops, an update of a temporary that dies there (a sort's
// result) is made in the temporary's buffer: one buffer, no copy.
// CHECK-LABEL: func.func @temporary
// CHECK: %[[SORTED:.*]] = "mem.alloc"() : () -> memref<8xf32>
// CHECK: %[[SCRATCH:.*]] = "mem.alloc"() : () -> memref<8xf32>
// CHECK: "mem.dealloc"(%[[SCRATCH]])
// CHECK-NOT: "mem.alloc"() : () -> memref<8xf32>
// CHECK-NOT: "mem.copy"
// CHECK: "mem.store"(%{{.*}}, %[[SORTED]], %{{.*}}) : (f32, memref<8xf32>, index)
// CHECK: "mem.store"(%{{.*}}, %arg3, %{{.*}}) : (f32, memref<8xf32>, index)
// CHECK: "mem.dealloc"(%[[SORTED]])
func.func @temporary(%x: tensor<8xf32>, %row: tensor<2xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %s = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %u = stablehlo.dynamic_update_slice %s, %row, %i : (tensor<8xf32>, tensor<2xf32>, tensor<i32>) -> tensor<8xf32>
  %e = stablehlo.exponential %u : tensor<8xf32>
  return %e : tensor<8xf32>
}
