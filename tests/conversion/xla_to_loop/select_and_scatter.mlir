// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.select_and_scatter: the result is filled with the init value; then for
// each source element a loop over its operand window (padding positions are
// skipped by a bounds test) keeps a selected position and a found flag: the
// first in-bounds element is taken, and a later element replaces the
// selection unless select(selected, element) holds. If an element was found,
// the scatter region folds the source element into the result there.

// The gradient of a max pool (select GE, scatter add), window 2, stride 2.

// CHECK-LABEL: func.func @max_pool_grad
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[SRC:.*]]: memref<2xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[INIT:.*]] = "mem.get_global"()
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[R:.*]]: index):
// CHECK: %[[I0:.*]] = "mem.load"(%[[INIT]])
// CHECK: "mem.store"(%[[I0]], %[[OUT]], %[[R]])
// CHECK: %[[SEL:.*]] = "mem.alloca"() : () -> memref<1xindex>
// CHECK: %[[FOUND:.*]] = "mem.alloca"() : () -> memref<i1>
// CHECK: %[[NS:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: "loop.for"(%{{.*}}, %[[NS]], %{{.*}})
// CHECK-NEXT: ^{{.*}}(%[[S:.*]]: index):
// CHECK: %[[NO:.*]] = "arith.constant"() {value = {{(0 : i1|false)}}} : () -> i1
// CHECK: "mem.store"(%[[NO]], %[[FOUND]])
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[W:.*]]: index):
// CHECK: %[[STRIDE:.*]] = "arith.constant"() {value = 2 : index}
// CHECK: %[[M:.*]] = "arith.muli"(%[[S]], %[[STRIDE]])
// CHECK: %[[N:.*]] = "arith.muli"(%[[W]], %{{.*}})
// CHECK: %[[SUM:.*]] = "arith.addi"(%[[M]], %[[N]])
// CHECK: %[[IDX:.*]] = "arith.subi"(%[[SUM]], %{{.*}})
// CHECK: %[[LT:.*]] = "arith.cmpi"(%{{.*}}, %{{.*}}) {predicate = "slt"}
// CHECK: %[[T:.*]] = "arith.andi"
// CHECK: %[[IN:.*]] = "arith.andi"(%[[T]], %[[LT]])
// CHECK: %[[POS:.*]] = "arith.select"(%[[LT]], %{{.*}}, %{{.*}}) : (i1, index, index) -> index
// CHECK: "loop.if"(%[[IN]]) ({
// CHECK: %[[HAVE:.*]] = "mem.load"(%[[FOUND]])
// CHECK: %[[SP:.*]] = "mem.load"(%[[SEL]], %{{.*}})
// CHECK: %[[SV:.*]] = "mem.load"(%[[A]], %[[SP]])
// CHECK: %[[XV:.*]] = "mem.load"(%[[A]], %[[POS]])
// CHECK: %[[KEEP:.*]] = "arith.cmpf"(%[[SV]], %[[XV]]) {predicate = "oge"}
// CHECK: %[[STAY:.*]] = "arith.andi"(%[[HAVE]], %[[KEEP]])
// CHECK: %[[TRUE:.*]] = "arith.constant"() {value = {{(1 : i1|true)}}} : () -> i1
// CHECK: %[[TAKE:.*]] = "arith.xori"(%[[STAY]], %[[TRUE]])
// CHECK: "loop.if"(%[[TAKE]]) ({
// CHECK: "mem.store"(%[[POS]], %[[SEL]], %{{.*}})
// CHECK: %[[YES:.*]] = "arith.constant"() {value = {{(1 : i1|true)}}} : () -> i1
// CHECK: "mem.store"(%[[YES]], %[[FOUND]])
// CHECK: %[[DONE:.*]] = "mem.load"(%[[FOUND]])
// CHECK: "loop.if"(%[[DONE]]) ({
// CHECK: %[[T:.*]] = "mem.load"(%[[SEL]], %{{.*}})
// CHECK: %[[OLD:.*]] = "mem.load"(%[[OUT]], %[[T]])
// CHECK: %[[V:.*]] = "mem.load"(%[[SRC]], %[[S]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[V]])
// CHECK: "mem.store"(%[[NEW]], %[[OUT]], %[[T]])
func.func @max_pool_grad(%a: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%a, %s, %z) <{padding = dense<0> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GE, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
