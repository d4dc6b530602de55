// RUN: strata opt %s --convert-xla-to-loop --mem-reuse-buffers | FileCheck %s
// RUN: strata run %s --function f --input '[1, -2, -2, 1]' | FileCheck %s --check-prefix=RESULT

// Regression (tests/invalid/FUZZING.md): a dead i32 buffer is reused for an f32 value
// of the same byte size through a mem.view, which must verify (a view
// reinterprets the same bytes) and compute the right values.

// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[A:.*]]: memref<4xi32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[I:.*]] = "mem.alloc"() : () -> memref<4xi32>
// CHECK: "arith.sitofp"
// CHECK: "mem.view"(%[[I]]) : (memref<4xi32>) -> memref<4xf32>
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// Ops that are not recomputed in several readers (shift, sqrt, floor), each
// read at its own index and reversed (so not computed once for both in one
// nest), make the buffers: the i32 a << 1 dies in sqrt's loop, and floor's
// f32 buffer takes its bytes. With a palindrome a, each reversed read is
// the element itself: floor(sqrt(f32((2a)^2))^2)^2, a = -2 gives 16^2 = 256.
// RESULT: dense<[16.0, 256.0, 256.0, 16.0]> : tensor<4xf32>
func.func @f(%a: tensor<4xi32>) -> tensor<4xf32> {
  %one = stablehlo.constant dense<1> : tensor<4xi32>
  %0 = stablehlo.shift_left %a, %one : tensor<4xi32>
  %r0 = stablehlo.reverse %0, dims = [0] : tensor<4xi32>
  %1 = stablehlo.multiply %0, %r0 : tensor<4xi32>
  %2 = stablehlo.convert %1 : (tensor<4xi32>) -> tensor<4xf32>
  %3 = stablehlo.sqrt %2 : tensor<4xf32>
  %r3 = stablehlo.reverse %3, dims = [0] : tensor<4xf32>
  %4 = stablehlo.multiply %3, %r3 : tensor<4xf32>
  %5 = stablehlo.floor %4 : tensor<4xf32>
  %r5 = stablehlo.reverse %5, dims = [0] : tensor<4xf32>
  %6 = stablehlo.multiply %5, %r5 : tensor<4xf32>
  return %6 : tensor<4xf32>
}
