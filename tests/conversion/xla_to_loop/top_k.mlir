// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// top_k: per row (rows in parallel), one pass over the elements keeps the
// k largest sorted in the results: an element is compared by its
// total-order key (the bits, with the magnitude bits flipped for negative
// values: x ^ ((x >>s 31) >>u 1)), so NaNs and signed zeros order as
// XLA orders them; a larger one is inserted by shifting the smaller ones
// down (values and indices), and the count of kept elements grows to k.

// CHECK-LABEL: func.func @top_k
// CHECK-SAME: (%[[X:.*]]: memref<2x8xf32>, %[[V:.*]]: memref<2x3xf32>, %[[I:.*]]: memref<2x3xi32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[ROW:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[COL:.*]]: index):
// CHECK: %[[E:.*]] = "mem.load"(%[[X]], %[[ROW]], %[[COL]])
// CHECK: %[[BITS:.*]] = "arith.bitcast"(%[[E]]) : (f32) -> i32
// CHECK: %[[SIGN:.*]] = "arith.shrsi"(%[[BITS]], %{{.*}})
// CHECK: %[[MAG:.*]] = "arith.shrui"(%[[SIGN]], %{{.*}})
// CHECK: %[[KEY:.*]] = "arith.xori"(%[[BITS]], %[[MAG]])
// CHECK: "loop.while"
// CHECK: "mem.store"(%{{.*}}, %[[V]], %[[ROW]], %{{.*}})
// CHECK: "mem.store"(%{{.*}}, %[[I]], %[[ROW]], %{{.*}})
// CHECK: "mem.store"(%[[E]], %[[V]], %[[ROW]], %{{.*}})
// CHECK: %[[IDX:.*]] = "arith.index_cast"(%[[COL]]) : (index) -> i32
// CHECK: "mem.store"(%[[IDX]], %[[I]], %[[ROW]], %{{.*}})
// CHECK: "arith.minsi"
// CHECK: }) {parallel}

func.func @top_k(%x: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0:2 = chlo.top_k(%x, k = 3) : tensor<2x8xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}
