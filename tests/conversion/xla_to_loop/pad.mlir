// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.pad: the output is filled with the padding value, then each operand
// element is stored at low + i * (interior + 1) when that lands inside the
// output (negative padding crops).

// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[A:.*]]: memref<3xf32>, %[[V:.*]]: memref<f32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: "mem.alloc"
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[K:.*]]: index):
// CHECK: %[[PV:.*]] = "mem.load"(%[[V]]) : (memref<f32>) -> f32
// CHECK: "mem.store"(%[[PV]], %[[OUT]], %[[K]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK-DAG: %[[STRIDE:.*]] = "arith.constant"() {value = 2 : index}
// CHECK-DAG: %[[LOW:.*]] = "arith.constant"() {value = 1 : index}
// CHECK: %[[M:.*]] = "arith.muli"(%[[I]], %[[STRIDE]])
// CHECK: %[[POS:.*]] = "arith.addi"(%[[M]], %[[LOW]])
// CHECK: %[[GE:.*]] = "arith.cmpi"(%[[POS]], %{{.*}}) {predicate = "sge"}
// CHECK: %[[LT:.*]] = "arith.cmpi"(%[[POS]], %{{.*}}) {predicate = "slt"}
// CHECK: %[[IN:.*]] = "arith.andi"(%[[GE]], %[[LT]])
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]])
// CHECK: "loop.if"(%[[IN]]) ({
// CHECK-NEXT: "mem.store"(%[[X]], %[[OUT]], %[[POS]])
func.func @pad(%a: tensor<3xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  %0 = stablehlo.pad %a, %v, low = [1], high = [2], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Negative low padding shifts elements left; out-of-range ones are dropped.

// CHECK-LABEL: func.func @pad_negative
// CHECK: %[[LOW:.*]] = "arith.constant"() {value = -1 : index}
// CHECK: "arith.addi"(%{{.*}}, %[[LOW]])
// CHECK: "loop.if"
func.func @pad_negative(%a: tensor<4xi32>) -> tensor<3xi32> {
  %v = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.pad %a, %v, low = [-1], high = [0], interior = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
