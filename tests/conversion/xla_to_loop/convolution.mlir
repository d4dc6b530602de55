// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.convolution: a loop nest over the result (batch, spatial, output
// feature) with a zeroed accumulator, and an inner nest over the kernel's
// input features and spatial positions. The input position is
// out * stride + k * rhs_dilation - padding_low; products at padded (or
// lhs-dilated) positions are replaced by zero, then summed in order.

// CHECK-LABEL: func.func @conv1d
// CHECK-SAME: (%[[X:.*]]: memref<1x5x2xf32>, %[[K:.*]]: memref<3x2x4xf32>, %[[OUT:.*]]: memref<1x5x4xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[S:.*]]: index):
// CHECK: %[[NO:.*]] = "arith.constant"() {value = 4 : index}
// CHECK: "loop.for"(%{{.*}}, %[[NO]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[O:.*]]: index):
// CHECK: %[[ACC:.*]] = "mem.alloca"() : () -> memref<f32>
// CHECK: %[[Z:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: "mem.store"(%[[Z]], %[[ACC]])
// CHECK: %[[NI:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: "loop.for"(%{{.*}}, %[[NI]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[NK:.*]] = "arith.constant"() {value = 3 : index}
// CHECK: "loop.for"(%{{.*}}, %[[NK]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[W:.*]]: index):
// CHECK: %[[STRIDE:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-NEXT: %[[DIL:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-NEXT: %[[LOW:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-NEXT: %[[M:.*]] = "arith.muli"(%[[S]], %[[STRIDE]])
// CHECK-NEXT: %[[N:.*]] = "arith.muli"(%[[W]], %[[DIL]])
// CHECK: %[[SUM:.*]] = "arith.addi"(%[[M]], %[[N]])
// CHECK: %[[POS:.*]] = "arith.subi"(%[[SUM]], %[[LOW]])
// CHECK: %[[GE:.*]] = "arith.cmpi"(%[[POS]], %{{.*}}) {predicate = "sge"}
// CHECK: %[[LT:.*]] = "arith.cmpi"(%{{.*}}, %{{.*}}) {predicate = "slt"}
// CHECK: %[[T:.*]] = "arith.andi"(%[[GE]], %{{.*}})
// CHECK: %[[IN:.*]] = "arith.andi"(%[[T]], %[[LT]])
// CHECK: %[[SP:.*]] = "arith.select"(%[[LT]], %{{.*}}, %{{.*}}) : (i1, index, index) -> index
// CHECK: %[[XV:.*]] = "mem.load"(%[[X]], %{{.*}}, %[[SP]], %{{.*}})
// CHECK: %[[KV:.*]] = "mem.load"(%[[K]], %[[W]], %[[I]], %[[O]])
// CHECK: %[[P:.*]] = "arith.mulf"(%[[XV]], %[[KV]])
// CHECK: %[[ZERO:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: %[[PV:.*]] = "arith.select"(%[[IN]], %[[P]], %[[ZERO]])
// CHECK: %[[OLD:.*]] = "mem.load"(%[[ACC]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[PV]])
// CHECK: "mem.store"(%[[NEW]], %[[ACC]])
// CHECK: "loop.yield"
// CHECK: "loop.yield"
// CHECK: %[[RES:.*]] = "mem.load"(%[[ACC]])
// CHECK: "mem.store"(%[[RES]], %[[OUT]], %[[B]], %[[S]], %[[O]])
func.func @conv1d(%a: tensor<1x5x2xf32>, %k: tensor<3x2x4xf32>) -> tensor<1x5x4xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x2xf32>, tensor<3x2x4xf32>) -> tensor<1x5x4xf32>
  return %0 : tensor<1x5x4xf32>
}

// -----

// feature_group_count = 2: output feature o belongs to group o / 3 (6 outputs
// in 2 groups), which reads input features group * 2 + i.

// CHECK-LABEL: func.func @grouped
// CHECK-SAME: (%[[X:.*]]: memref<1x4x4xf32>, %[[K:.*]]: memref<2x2x6xf32>, %[[OUT:.*]]: memref<1x3x6xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[S:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[O:.*]]: index):
// CHECK: %[[PER:.*]] = "arith.constant"() {value = 3 : index}
// CHECK: %[[G:.*]] = "arith.divui"(%[[O]], %[[PER]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[W:.*]]: index):
// CHECK: %[[KIN:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[BASE:.*]] = "arith.muli"(%[[G]], %[[KIN]])
// CHECK: %[[F:.*]] = "arith.addi"(%[[BASE]], %[[I]])
// CHECK: %[[XV:.*]] = "mem.load"(%[[X]], %{{.*}}, %{{.*}}, %[[F]])
// CHECK: %[[KV:.*]] = "mem.load"(%[[K]], %[[W]], %[[I]], %[[O]])
// CHECK: "arith.mulf"(%[[XV]], %[[KV]])
func.func @grouped(%a: tensor<1x4x4xf32>, %k: tensor<2x2x6xf32>) -> tensor<1x3x6xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4xf32>, tensor<2x2x6xf32>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}

// -----

// Stride 2 scales the output position; window_reversal reads the kernel at
// (size - 1) - k.

// CHECK-LABEL: func.func @strided_reversed
// CHECK-SAME: (%[[X:.*]]: memref<1x5x1xf32>, %[[K:.*]]: memref<3x1x1xf32>, %[[OUT:.*]]: memref<1x2x1xf32>)
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[B:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[S:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[O:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[W:.*]]: index):
// CHECK: %[[STRIDE:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: "arith.muli"(%[[S]], %[[STRIDE]])
// CHECK: %[[LAST:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[KW:.*]] = "arith.subi"(%[[LAST]], %[[W]])
// CHECK: %[[XV:.*]] = "mem.load"(%[[X]]
// CHECK: %[[KV:.*]] = "mem.load"(%[[K]], %[[KW]], %[[I]], %[[O]])
// CHECK: "arith.mulf"(%[[XV]], %[[KV]])
func.func @strided_reversed(%a: tensor<1x5x1xf32>, %k: tensor<3x1x1xf32>) -> tensor<1x2x1xf32> {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], lhs_dilate = [1], rhs_dilate = [1], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xf32>, tensor<3x1x1xf32>) -> tensor<1x2x1xf32>
  return %0 : tensor<1x2x1xf32>
}
