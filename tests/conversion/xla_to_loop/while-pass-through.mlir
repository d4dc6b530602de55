// RUN: strata opt %s --split-input-file --convert-xla-to-loop --mem-reuse-buffers | FileCheck %s

// A while loop's state slot that the body returns unchanged (%w) is read
// in the buffer of its initial value (%y's): not copied into a buffer of
// its own. The loop's result names that buffer, so it stays allocated
// until the result's last reader (the final add): the sum made after the
// loop (%t) gets a buffer of its own, not %y's.

// CHECK-LABEL: func.func @passed_through
// CHECK: %[[Y:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK: "arith.mulf"
// CHECK: "mem.store"(%{{.*}}, %[[Y]]
// CHECK-NOT: "mem.copy"(%[[Y]]
// CHECK: "loop.while"
// CHECK-NOT: "mem.copy"(%[[Y]]
// CHECK-NOT: "mem.store"(%{{.*}}, %[[Y]]
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<4xf32>
// CHECK-NOT: "mem.store"(%{{.*}}, %[[Y]]
// CHECK: "mem.store"(%{{.*}}, %[[T]]
// CHECK: "mem.load"(%[[Y]]
// CHECK: "mem.dealloc"(%[[Y]])
func.func @passed_through(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.multiply %x, %x : tensor<4xf32>
  %yb = stablehlo.optimization_barrier %y : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%w = %yb, %i = %c0) : tensor<4xf32>, tensor<i32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %w, %j : tensor<4xf32>, tensor<i32>
  }
  %t = stablehlo.add %x, %x : tensor<4xf32>
  %tb = stablehlo.optimization_barrier %t : tensor<4xf32>
  %s = stablehlo.add %r#0, %tb : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// The caller's buffers passed through and read by no kernel are read in
// place whatever their size: %big and %small. Those a kernel reads are
// copied while they are small (while-pass-through-kernel.mlir).

// CHECK-LABEL: func.func @caller_buffers
// CHECK-SAME: (%[[BIG:[^:]*]]: memref<4194305xf32>, %[[SMALL:[^:]*]]: memref<4xf32>
// CHECK-NOT: "mem.copy"(%[[BIG]]
// CHECK-NOT: "mem.copy"(%[[SMALL]]
// CHECK: "loop.while"
// CHECK: "mem.load"(%[[BIG]],
// CHECK: "mem.load"(%[[SMALL]],
func.func @caller_buffers(%big: tensor<4194305xf32>, %small: tensor<4xf32>) -> tensor<f32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %f0 = stablehlo.constant dense<0.0> : tensor<f32>
  %r:4 = stablehlo.while(%b = %big, %s = %small, %i = %c0, %acc = %f0) : tensor<4194305xf32>, tensor<4xf32>, tensor<i32>, tensor<f32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %d = stablehlo.dynamic_slice %b, %i, sizes = [1] : (tensor<4194305xf32>, tensor<i32>) -> tensor<1xf32>
    %e = stablehlo.dynamic_slice %s, %i, sizes = [1] : (tensor<4xf32>, tensor<i32>) -> tensor<1xf32>
    %de = stablehlo.add %d, %e : tensor<1xf32>
    %v = stablehlo.reshape %de : (tensor<1xf32>) -> tensor<f32>
    %a = stablehlo.add %acc, %v : tensor<f32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %b, %s, %j, %a : tensor<4194305xf32>, tensor<4xf32>, tensor<i32>, tensor<f32>
  }
  return %r#3 : tensor<f32>
}
