// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// An element-wise value read by several element-wise ops, all computed at
// its index in one loop nest, is computed once per element there; the
// values that need buffers (results, values read elsewhere) are written by
// that one nest (multi-output nests).

// exp feeds two results: one nest, one exp, two stores, no buffer.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>)
// CHECK-NOT: "mem.alloc"
// CHECK: %[[E:.*]] = "arith.exp"
// CHECK-NOT: "arith.exp"
// CHECK: "arith.addf"(%[[E]],
// CHECK: "mem.store"(%{{.*}}, %[[A]]
// CHECK: "arith.mulf"(%[[E]],
// CHECK: "mem.store"(%{{.*}}, %[[B]]
// CHECK-NEXT: "loop.yield"
// CHECK: "func.return"
func.func @two_results(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %a = stablehlo.add %e, %x : tensor<4x8xf32>
  %b = stablehlo.multiply %e, %x : tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Threefry-like rounds: each new value is read two or three times by the
// next round. One nest writes both results; the second takes the first's
// value as stored, without loading it back.
// CHECK-LABEL: func.func @rounds
// CHECK-SAME: %[[W0:[^:]*]]: memref<64xui32>, %[[W1:[^:]*]]: memref<64xui32>)
// CHECK-NOT: "mem.alloc"
// CHECK: "loop.for"
// CHECK-COUNT-2: "arith.xori"
// CHECK: "mem.store"(%[[V0:.*]], %[[W0]]
// CHECK-NOT: "loop.for"
// CHECK-NOT: "mem.load"(%[[W0]]
// CHECK: "arith.xori"(%[[V0]],
// CHECK: "mem.store"(%{{.*}}, %[[W1]]
// CHECK-NOT: "loop.for"
// CHECK: "func.return"
func.func @rounds(%x0: tensor<64xui32>, %x1: tensor<64xui32>) -> (tensor<64xui32>, tensor<64xui32>) {
  %c13 = stablehlo.constant dense<13> : tensor<64xui32>
  %y0 = stablehlo.add %x0, %x1 : tensor<64xui32>
  %r1 = stablehlo.shift_left %x1, %c13 : tensor<64xui32>
  %y1 = stablehlo.xor %y0, %r1 : tensor<64xui32>
  %z0 = stablehlo.add %y0, %y1 : tensor<64xui32>
  %r2 = stablehlo.shift_left %y1, %c13 : tensor<64xui32>
  %z1 = stablehlo.xor %z0, %r2 : tensor<64xui32>
  %w0 = stablehlo.add %z0, %z1 : tensor<64xui32>
  %r3 = stablehlo.shift_left %z1, %c13 : tensor<64xui32>
  %w1 = stablehlo.xor %w0, %r3 : tensor<64xui32>
  return %w0, %w1 : tensor<64xui32>, tensor<64xui32>
}

// -----

// %t is read by a reduction before %u is computed, so their nests cannot
// merge: exp gets a buffer, written by a nest of its own.
// CHECK-LABEL: func.func @read_between
// CHECK: %[[S:.*]] = "mem.alloc"() : () -> memref<4x8xf32>
// CHECK: "arith.exp"
// CHECK: "mem.store"(%{{.*}}, %[[S]]
// CHECK: "mem.load"(%[[S]]
// CHECK: "arith.addf"
// CHECK: "mem.load"(%[[S]]
// CHECK: "arith.mulf"
// CHECK-NOT: "arith.exp"
// CHECK: "func.return"
func.func @read_between(%x: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.exponential %x : tensor<4x8xf32>
  %t = stablehlo.add %s, %x : tensor<4x8xf32>
  %r = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %u = stablehlo.multiply %s, %x : tensor<4x8xf32>
  return %r, %u : tensor<8xf32>, tensor<4x8xf32>
}

// -----

// %s is read by %t's nest and by %w's, but %t is also read by the reduction
// before %w: the two nests must not merge (%t would be written after the
// reduction read it). %s keeps its buffer; %t's nest, the reduction, then
// %w's nest, in that order.
// CHECK-LABEL: func.func @no_merge
// CHECK: %[[S:.*]] = "mem.alloc"() : () -> memref<4x8xf32>
// CHECK: "arith.tanh"
// CHECK: "mem.store"(%{{.*}}, %[[S]]
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<4x8xf32>
// CHECK: "arith.exp"
// CHECK: "mem.store"(%{{.*}}, %[[T]]
// CHECK: "mem.load"(%[[T]]
// CHECK-NEXT: "arith.addf"{{.*}}{reassoc, contract}
// CHECK: "mem.load"(%[[S]]
// CHECK-NOT: "arith.exp"
// CHECK: "mem.load"(%[[T]]
// CHECK: "func.return"
func.func @no_merge(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %three = stablehlo.constant dense<3.000000e+00> : tensor<4x8xf32>
  %s = stablehlo.tanh %x : tensor<4x8xf32>
  %t = stablehlo.exponential %s : tensor<4x8xf32>
  %r = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %u0 = stablehlo.multiply %s, %three : tensor<4x8xf32>
  %u = stablehlo.add %u0, %rb : tensor<4x8xf32>
  %w = stablehlo.multiply %u, %t : tensor<4x8xf32>
  return %w : tensor<4x8xf32>
}

// -----

// In a loop body, the two carried arrays are updated from each other by one
// nest (the body's results get their buffers there, for the loop to copy,
// rather than %x2 being computed again at the end of the body).
// CHECK-LABEL: func.func @loop
// CHECK: "loop.while"
// CHECK: "arith.sin"
// CHECK-NOT: "loop.for"
// CHECK: "mem.store"
// CHECK-NOT: "loop.for"
// CHECK: "mem.store"
// CHECK: "loop.yield"
func.func @loop(%a: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %x = %a, %y = %b) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %s = stablehlo.sine %y : tensor<16xf32>
      %x2 = stablehlo.add %x, %s : tensor<16xf32>
      %y2 = stablehlo.multiply %x2, %s : tensor<16xf32>
      stablehlo.return %j, %x2, %y2 : tensor<i32>, tensor<16xf32>, tensor<16xf32>
    }
  return %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>
}

// -----

// Adam's step: the new moments must keep their buffers (the loop carries
// them), and the parameter's update reads both; they are written by the
// update's nest, beside it: one pass over p, m, v and g.
// CHECK-LABEL: func.func @adam
// CHECK: "loop.while"
// CHECK: "loop.for"
// CHECK-COUNT-3: "mem.store"(%{{.*}}, %{{.*}}, %arg
// CHECK-NEXT: "loop.yield"
// CHECK-NOT: "loop.for"
// CHECK: "loop.yield"
func.func @adam(%p0: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<16xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<16xf32>
  %r:4 = stablehlo.while(%i = %i0, %p = %p0, %m = %z, %v = %z) : tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %b1 = stablehlo.constant dense<0.9> : tensor<16xf32>
      %b2 = stablehlo.constant dense<0.999> : tensor<16xf32>
      %lr = stablehlo.constant dense<0.01> : tensor<16xf32>
      %gg = stablehlo.multiply %g, %g : tensor<16xf32>
      %m1 = stablehlo.multiply %b1, %m : tensor<16xf32>
      %m2 = stablehlo.add %m1, %g : tensor<16xf32>
      %v1 = stablehlo.multiply %b2, %v : tensor<16xf32>
      %v2 = stablehlo.add %v1, %gg : tensor<16xf32>
      %s = stablehlo.sqrt %v2 : tensor<16xf32>
      %d = stablehlo.divide %m2, %s : tensor<16xf32>
      %u = stablehlo.multiply %lr, %d : tensor<16xf32>
      %p2 = stablehlo.subtract %p, %u : tensor<16xf32>
      stablehlo.return %j, %p2, %m2, %v2 : tensor<i32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
    }
  return %r#1 : tensor<16xf32>
}
