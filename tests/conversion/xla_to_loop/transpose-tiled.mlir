// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s
// RUN: strata run %s --input "[[[1, 2], [3, 4]]]" --function small | FileCheck %s --check-prefix=SMALL

// A materialized transpose that moves the innermost dimension marks its
// row loop for loop-tile: blocks of 32x32 (the largest power of two up to
// 256 dividing both dimensions), tiles of 8x8.
// CHECK-LABEL: func.func @main
// CHECK: "loop.for"
// CHECK: "mem.load"(%arg0
// CHECK: "mem.store"(%{{.*}}, %arg1
// CHECK: }) {parallel} : (index, index, index) -> ()
// CHECK-NEXT: "loop.yield"
// CHECK-NEXT: }) {parallel, tile = array<i64: 32, 8>} : (index, index, index) -> ()
func.func @main(%a: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  return %0 : tensor<96x64xf32>
}

// Small shapes keep the plain loop nest (no tile).
// CHECK-LABEL: func.func @small
// CHECK-NOT: tile
// SMALL: dense<{{\[}}{{\[}}[1, 3], [2, 4]]]> : tensor<1x2x2xi32>
func.func @small(%a: tensor<1x2x2xi32>) -> tensor<1x2x2xi32> {
  %0 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<1x2x2xi32>) -> tensor<1x2x2xi32>
  return %0 : tensor<1x2x2xi32>
}
