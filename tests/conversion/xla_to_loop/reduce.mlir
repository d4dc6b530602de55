// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.reduce: one parallel loop nest over the kept dimensions; per output
// element, an accumulator in a stack slot initialized from the init value, an inner loop nest over the
// reduced dimensions running the reducer body, then one store per result
// element. Element-wise producers fuse into the inner loop.

// CHECK-LABEL: func.func @sum_rows
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK-NOT: "mem.alloc"
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[ACC:.*]] = "mem.alloca"() : () -> memref<f32>
// CHECK: %[[INIT:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: "mem.store"(%[[INIT]], %[[ACC]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[J]])
// CHECK: %[[E:.*]] = "arith.exp"(%[[X]])
// CHECK: %[[OLD:.*]] = "mem.load"(%[[ACC]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[E]]) {reassoc, contract}
// CHECK: "mem.store"(%[[NEW]], %[[ACC]])
// CHECK: "loop.yield"
// CHECK: %[[RES:.*]] = "mem.load"(%[[ACC]])
// CHECK: "mem.store"(%[[RES]], %[[OUT]], %[[I]])
// CHECK: "loop.yield"
// CHECK-NEXT: }) {parallel}
func.func @sum_rows(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %a : tensor<4x8xf32>
  %0 = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Reducing every dimension gives a 0-d result and a two-deep inner nest.

// CHECK-LABEL: func.func @max_all
// CHECK-SAME: (%[[A:.*]]: memref<3x5xi32>, %[[OUT:.*]]: memref<i32>)
// CHECK: %[[ACC:.*]] = "mem.alloca"() : () -> memref<i32>
// CHECK: "mem.store"(%{{.*}}, %[[ACC]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]], %[[J]])
// CHECK: %[[OLD:.*]] = "mem.load"(%[[ACC]])
// CHECK: %[[NEW:.*]] = "arith.maxsi"(%[[OLD]], %[[X]])
// CHECK: "mem.store"(%[[NEW]], %[[ACC]])
// CHECK: %[[RES:.*]] = "mem.load"(%[[ACC]])
// CHECK: "mem.store"(%[[RES]], %[[OUT]]) : (i32, memref<i32>) -> ()
func.func @max_all(%a: tensor<3x5xi32>) -> tensor<i32> {
  %z = stablehlo.constant dense<-2147483648> : tensor<i32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<3x5xi32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// Multi-input reduce (argmax) over the outer dimension only: the results
// start at the init values, then the inputs are read in memory order, eight
// rows at a time: each result is loaded once, the eight rows' elements are
// folded into it in row order through the region's ops, inlined on scalars,
// and it is stored once.

// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[V:.*]]: memref<8x8xf32>, %[[IX:.*]]: memref<8x8xi32>, %[[OV:.*]]: memref<8xf32>, %[[OI:.*]]: memref<8xi32>)
// CHECK-NOT: "mem.alloca"
// CHECK: "mem.store"(%{{.*}}, %[[OV]], %{{.*}})
// CHECK: "mem.store"(%{{.*}}, %[[OI]], %{{.*}})
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[R0:.*]] = "arith.addi"(%[[I]], %{{.*}})
// CHECK: %[[R1:.*]] = "arith.addi"(%[[I]], %{{.*}})
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK-DAG: %[[BV:.*]] = "mem.load"(%[[OV]], %[[J]])
// CHECK-DAG: %[[BI:.*]] = "mem.load"(%[[OI]], %[[J]])
// CHECK-DAG: %[[XV:.*]] = "mem.load"(%[[V]], %[[R0]], %[[J]])
// CHECK-DAG: %[[XI:.*]] = "mem.load"(%[[IX]], %[[R0]], %[[J]])
// CHECK: %[[GE:.*]] = "arith.cmpf"(%[[BV]], %[[XV]]) {predicate = "oge"}
// CHECK: %[[SV:.*]] = "arith.select"(%[[GE]], %[[BV]], %[[XV]])
// CHECK: %[[SI:.*]] = "arith.select"(%[[GE]], %[[BI]], %[[XI]])
// CHECK: %[[XV1:.*]] = "mem.load"(%[[V]], %[[R1]], %[[J]])
// CHECK: "arith.cmpf"(%[[SV]], %[[XV1]]) {predicate = "oge"}
// CHECK-NOT: "mem.store"
// CHECK: "arith.cmpf"
// CHECK: "arith.cmpf"
// CHECK-DAG: "mem.store"(%{{.*}}, %[[OV]], %[[J]])
// CHECK-DAG: "mem.store"(%{{.*}}, %[[OI]], %[[J]])
func.func @argmax(%a: tensor<8x8xf32>, %i: tensor<8x8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %z), (%i init: %zi) across dimensions = [0] : (tensor<8x8xf32>, tensor<8x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%p: tensor<i32>, %q: tensor<i32>)  {
      %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %s = stablehlo.select %c, %x, %y : tensor<i1>, tensor<f32>
      %t = stablehlo.select %c, %p, %q : tensor<i1>, tensor<i32>
      stablehlo.return %s, %t : tensor<f32>, tensor<i32>
    }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

// A column sum large enough for threads: the results split into blocks of
// columns (here 4 of 256), one iteration of a parallel loop each, which
// sweeps every row over its block, eight rows at a time; the last block
// ends at the row's end (min).

// CHECK-LABEL: func.func @column_sum_in_blocks
// CHECK-SAME: (%[[A:.*]]: memref<512x1024xf32>, %[[OUT:.*]]: memref<1024xf32>)
// CHECK: "loop.for"
// CHECK: }) {parallel}
// CHECK: %[[W:.*]] = "arith.constant"() {value = 256 : index}
// CHECK: "loop.for"(%{{.*}}, %{{.*}}, %[[W]])
// CHECK-NEXT: ^{{.*}}(%[[C0:.*]]: index):
// CHECK: %[[END:.*]] = "arith.addi"(%[[C0]], %{{.*}})
// CHECK: %[[C1:.*]] = "arith.minui"(%[[END]], %{{.*}})
// CHECK: %[[EIGHT:.*]] = "arith.constant"() {value = 8 : index}
// CHECK: "loop.for"(%{{.*}}, %{{.*}}, %[[EIGHT]])
// CHECK-NEXT: ^{{.*}}(%[[R:.*]]: index):
// CHECK: "loop.for"(%[[C0]], %[[C1]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: "mem.load"(%[[OUT]], %[[J]])
// CHECK: "mem.load"(%[[A]], %{{.*}}, %[[J]])
// CHECK: "mem.store"(%{{.*}}, %[[OUT]], %[[J]])
// CHECK: }) {parallel}
func.func @column_sum_in_blocks(%a: tensor<512x1024xf32>) -> tensor<1024xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<512x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}

// -----

// A tall column sum (at least 32 rows per block of 64, a row within 16 KiB:
// here 4096 rows of 1024 f32) folds blocks of whole rows into partial
// results instead: each block reads its rows contiguously, the partials
// stay in L1, then each result folds the partials in block order.

// CHECK-LABEL: func.func @tall_column_sum_in_row_blocks
// CHECK-SAME: (%[[A:.*]]: memref<4096x1024xf32>, %[[OUT:.*]]: memref<1024xf32>)
// CHECK: %[[P:.*]] = "mem.alloc"() : () -> memref<64x1024xf32>
// CHECK: "mem.load"(%[[A]]
// CHECK: "mem.store"(%{{.*}}, %[[P]]
// CHECK: }) {parallel}
// CHECK: "mem.load"(%[[P]]
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// CHECK: "mem.dealloc"(%[[P]])
func.func @tall_column_sum_in_row_blocks(%a: tensor<4096x1024xf32>) -> tensor<1024xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  return %0 : tensor<1024xf32>
}

// -----

// Kept innermost, reduced over the outermost two (32x64x256, keeping 256):
// the results are not split across threads along dimension 1, which is
// reduced (every block would fold into the same results). The rows fold in
// blocks (here one row each) into partial results of their own, the blocks
// in parallel, then each result folds the partials in block order.

// CHECK-LABEL: func.func @reduced_second_dimension
// CHECK-SAME: (%[[X:.*]]: memref<32x64x256xf32>, %[[OUT:.*]]: memref<256xf32>)
// CHECK: %[[P:.*]] = "mem.alloc"() : () -> memref<32x256xf32>
// CHECK: %[[BLOCKS:.*]] = "arith.constant"() {value = 32 : index}
// CHECK: "loop.for"(%{{.*}}, %[[BLOCKS]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "mem.load"(%[[X]]
// CHECK: %[[ACC:.*]] = "mem.load"(%[[P]], %[[B]], %{{.*}})
// CHECK: "arith.addf"(%[[ACC]], %{{.*}})
// CHECK: "mem.store"(%{{.*}}, %[[P]], %[[B]], %{{.*}})
// CHECK: }) {parallel}
// CHECK: "mem.load"(%[[P]]
// CHECK: "mem.store"(%{{.*}}, %[[OUT]]
// CHECK: "mem.dealloc"(%[[P]])
func.func @reduced_second_dimension(%x: tensor<32x64x256xf32>) -> tensor<256xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x64x256xf32>, tensor<f32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
}
