// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// A reshape maps indices group by group: a window partition (2x14x14x8 ->
// 2x2x7x2x7x8, a transpose, -> 8x49x8) keeps the channel dimension, so the
// innermost loop's index reaches the load as it is, and only the outer
// indices are divided (by 4, 2, 7: within their own groups). Dividing the
// whole linearized index put the innermost index into every division.
// CHECK-LABEL: func.func @window_partition
// CHECK: ^bb1(%[[W:.*]]: index):
// CHECK: ^bb2(%[[P:.*]]: index):
// CHECK: ^bb3(%[[C:.*]]: index):
// CHECK-NOT: "arith.divui"(%[[C]]
// CHECK-NOT: "arith.remui"(%[[C]]
// CHECK-NOT: "arith.muli"(%[[C]]
// CHECK: "mem.load"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %[[C]])
// CHECK: "mem.store"(%{{.*}}, %arg1, %[[W]], %[[P]], %[[C]])
func.func @window_partition(%x: tensor<2x14x14x8xf32>) -> tensor<8x49x8xf32> {
  %r = stablehlo.reshape %x : (tensor<2x14x14x8xf32>) -> tensor<2x2x7x2x7x8xf32>
  %t = stablehlo.transpose %r, dims = [0, 1, 3, 2, 4, 5] : (tensor<2x2x7x2x7x8xf32>) -> tensor<2x2x2x7x7x8xf32>
  %w = stablehlo.reshape %t : (tensor<2x2x2x7x7x8xf32>) -> tensor<8x49x8xf32>
  %e = stablehlo.exponential %w : tensor<8x49x8xf32>
  return %e : tensor<8x49x8xf32>
}

// Sizes that cross (6x4 -> 4x6) form one group: linearized, then divided.
// CHECK-LABEL: func.func @crossing
// CHECK: "arith.divui"
// CHECK: "arith.remui"
func.func @crossing(%x: tensor<6x4xf32>) -> tensor<4x6xf32> {
  %r = stablehlo.reshape %x : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %e = stablehlo.exponential %r : tensor<4x6xf32>
  return %e : tensor<4x6xf32>
}
