// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.reduce_window: a parallel loop nest over the result; per element, an accumulator in a stack
// slot set from the init value, an inner nest over the window. Each input
// index is out * stride + w * window_dilation - padding_low; positions in the
// padding or between base-dilated elements read the init value instead (a
// select on the bounds test), then the reducer body is applied.

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[A:.*]]: memref<4x6xf32>, %[[OUT:.*]]: memref<2x3xf32>)
// CHECK: %[[INIT:.*]] = "mem.get_global"()
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[J:.*]]: index):
// CHECK: %[[ACC:.*]] = "mem.alloca"() : () -> memref<f32>
// CHECK: %[[I0:.*]] = "mem.load"(%[[INIT]])
// CHECK: "mem.store"(%[[I0]], %[[ACC]])
// CHECK: %[[WN:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: "loop.for"(%{{.*}}, %[[WN]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[WI:.*]]: index):
// CHECK: %[[WM:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: "loop.for"(%{{.*}}, %[[WM]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[WJ:.*]]: index):
// Row index: i * 2 + wi * 1 - 0.
// CHECK: %[[S0:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[D0:.*]] = "arith.constant"() {value = 1 : index}
// CHECK: %[[P0:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[M0:.*]] = "arith.muli"(%[[I]], %[[S0]])
// CHECK: %[[N0:.*]] = "arith.muli"(%[[WI]], %[[D0]])
// CHECK: %[[A0:.*]] = "arith.addi"(%[[M0]], %[[N0]])
// CHECK: %[[X0:.*]] = "arith.subi"(%[[A0]], %[[P0]])
// CHECK: "arith.cmpi"(%[[X0]], %{{.*}}) {predicate = "sge"}
// CHECK: %[[C0:.*]] = "arith.constant"() {value = 3 : index}
// CHECK: %[[R0:.*]] = "arith.select"(%{{.*}}, %{{.*}}, %[[C0]]) : (i1, index, index) -> index
// Column index: j * 2 + wj * 1 - 0.
// CHECK: %[[S1:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[D1:.*]] = "arith.constant"() {value = 1 : index}
// CHECK: %[[P1:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[M1:.*]] = "arith.muli"(%[[J]], %[[S1]])
// CHECK: %[[N1:.*]] = "arith.muli"(%[[WJ]], %[[D1]])
// CHECK: %[[A1:.*]] = "arith.addi"(%[[M1]], %[[N1]])
// CHECK: %[[X1:.*]] = "arith.subi"(%[[A1]], %[[P1]])
// CHECK: %[[C1:.*]] = "arith.constant"() {value = 5 : index}
// CHECK: %[[R1:.*]] = "arith.select"(%{{.*}}, %{{.*}}, %[[C1]]) : (i1, index, index) -> index
// CHECK: %[[IN:.*]] = "arith.andi"
// CHECK: %[[PADV:.*]] = "mem.load"(%[[INIT]])
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[R0]], %[[R1]])
// CHECK: %[[V:.*]] = "arith.select"(%[[IN]], %[[X]], %[[PADV]]) : (i1, f32, f32) -> f32
// CHECK: %[[OLD:.*]] = "mem.load"(%[[ACC]])
// CHECK: %[[NEW:.*]] = "arith.maximumf"(%[[OLD]], %[[V]])
// CHECK: "mem.store"(%[[NEW]], %[[ACC]])
// CHECK: "loop.yield"
// CHECK: "loop.yield"
// CHECK: %[[RES:.*]] = "mem.load"(%[[ACC]])
// CHECK: "mem.store"(%[[RES]], %[[OUT]], %[[I]], %[[J]])
func.func @max_pool(%a: tensor<4x6xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1 = "stablehlo.reduce_window"(%a, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// A cumulative sum's window (low padding 5 over a window of 6) from init 1,
// which each padded position adds again (from 0 it is a running fold, see
// reduce_window_scan.mlir). The padding low is subtracted, and the bounds
// test (index >= 0 and < 6) picks the init value for the padded positions.

// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[A:.*]]: memref<6xf32>, %[[OUT:.*]]: memref<6xf32>)
// CHECK: %[[INIT:.*]] = "mem.get_global"()
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[ACC:.*]] = "mem.alloca"() : () -> memref<f32>
// CHECK: "mem.store"(%{{.*}}, %[[ACC]])
// CHECK: %[[WN:.*]] = "arith.constant"() {value = 6 : index}
// CHECK: "loop.for"(%{{.*}}, %[[WN]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[W:.*]]: index):
// CHECK: %[[LOW:.*]] = "arith.constant"() {value = 5 : index}
// CHECK: %[[M:.*]] = "arith.muli"(%[[I]], %{{.*}})
// CHECK: %[[N:.*]] = "arith.muli"(%[[W]], %{{.*}})
// CHECK: %[[SUM:.*]] = "arith.addi"(%[[M]], %[[N]])
// CHECK: %[[IDX:.*]] = "arith.subi"(%[[SUM]], %[[LOW]])
// CHECK: %[[ZERO:.*]] = "arith.constant"() {value = 0 : index}
// CHECK: %[[GE:.*]] = "arith.cmpi"(%[[IDX]], %[[ZERO]]) {predicate = "sge"}
// CHECK: %[[SIZE:.*]] = "arith.constant"() {value = 6 : index}
// CHECK: %[[LT:.*]] = "arith.cmpi"(%{{.*}}, %[[SIZE]]) {predicate = "slt"}
// CHECK: %[[T:.*]] = "arith.andi"(%[[GE]], %{{.*}})
// CHECK: %[[IN:.*]] = "arith.andi"(%[[T]], %[[LT]])
// CHECK: %[[PADV:.*]] = "mem.load"(%[[INIT]])
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %{{.*}})
// CHECK: %[[V:.*]] = "arith.select"(%[[IN]], %[[X]], %[[PADV]])
// CHECK: %[[OLD:.*]] = "mem.load"(%[[ACC]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[V]])
// CHECK: "mem.store"(%[[NEW]], %[[ACC]])
// CHECK: %[[RES:.*]] = "mem.load"(%[[ACC]])
// CHECK: "mem.store"(%[[RES]], %[[OUT]], %[[I]])
func.func @cumsum(%a: tensor<6xf32>) -> tensor<6xf32> {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %1 = "stablehlo.reduce_window"(%a, %0) <{base_dilations = array<i64: 1>, padding = dense<[[5, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 6>, window_strides = array<i64: 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// Base dilation 2: only positions divisible by 2 hold an input element
// (index / 2), the holes read the init value.

// CHECK-LABEL: func.func @base_dilated
// CHECK-SAME: (%[[A:.*]]: memref<3xi32>, %[[OUT:.*]]: memref<4xi32>)
// CHECK: %[[IDX:.*]] = "arith.subi"
// CHECK: %[[GE:.*]] = "arith.cmpi"(%[[IDX]], %[[ZERO:.*]]) {predicate = "sge"}
// CHECK: %[[POS:.*]] = "arith.select"(%[[GE]], %[[IDX]], %[[ZERO]])
// CHECK: %[[BD:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[REM:.*]] = "arith.remui"(%[[POS]], %[[BD]])
// CHECK: %[[ON:.*]] = "arith.cmpi"(%[[REM]], %[[ZERO]]) {predicate = "eq"}
// CHECK: %[[Q:.*]] = "arith.divui"(%[[POS]], %[[BD]])
// CHECK: %[[LT:.*]] = "arith.cmpi"(%[[Q]], %{{.*}}) {predicate = "slt"}
// CHECK: %[[T:.*]] = "arith.andi"(%[[GE]], %[[ON]])
// CHECK: %[[IN:.*]] = "arith.andi"(%[[T]], %[[LT]])
// CHECK: %[[SRC:.*]] = "arith.select"(%[[LT]], %[[Q]], %{{.*}})
// CHECK: %[[PADV:.*]] = "mem.load"
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[SRC]])
// CHECK: %[[V:.*]] = "arith.select"(%[[IN]], %[[X]], %[[PADV]]) : (i1, i32, i32) -> i32
// CHECK: "arith.addi"(%{{.*}}, %[[V]]) : (i32, i32) -> i32
func.func @base_dilated(%a: tensor<3xi32>) -> tensor<4xi32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = "stablehlo.reduce_window"(%a, %0) <{base_dilations = array<i64: 2>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
    %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }) : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
