// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.constant: non-splat constants become module-level mem.global data read
// through mem.get_global; splat and one-element constants become
// arith.constant scalars where they are used.

// CHECK: "mem.global"() {sym_name = "[[G:.*]]", value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> ()
// CHECK-LABEL: func.func @dense_operand
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[C:.*]] = "mem.get_global"() {name = @[[G]]} : () -> memref<4xf32>
// CHECK: "loop.for"
// CHECK-NEXT: ^{{.*}}(%[[I:.*]]: index):
// CHECK: %[[X:.*]] = "mem.load"(%[[A]], %[[I]])
// CHECK: %[[Y:.*]] = "mem.load"(%[[C]], %[[I]])
// CHECK: %[[M:.*]] = "arith.mulf"(%[[X]], %[[Y]])
// CHECK: %[[TWO:.*]] = "arith.constant"() {value = 2.0 : f32}
// CHECK: %[[S:.*]] = "arith.addf"(%[[M]], %[[TWO]])
// CHECK: "mem.store"(%[[S]], %[[OUT]], %[[I]])
func.func @dense_operand(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.multiply %a, %c : tensor<4xf32>
  %1 = stablehlo.add %0, %s : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A returned constant is copied from its global into the output buffer.

// CHECK: "mem.global"() {sym_name = "[[G:.*]]", value = dense<[7, 8]> : tensor<2xi32>} : () -> ()
// CHECK-LABEL: func.func @return_constant
// CHECK-SAME: (%[[OUT:.*]]: memref<2xi32>)
// CHECK: %[[C:.*]] = "mem.get_global"() {name = @[[G]]} : () -> memref<2xi32>
// CHECK: "mem.copy"(%[[C]], %[[OUT]]) : (memref<2xi32>, memref<2xi32>) -> ()
func.func @return_constant() -> tensor<2xi32> {
  %c = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  return %c : tensor<2xi32>
}

// -----

// Each constant gets its own uniquely named global.

// CHECK-DAG: "mem.global"() {sym_name = "[[G1:[^"]*]]", value = dense<[1, 2]> : tensor<2xi8>}
// CHECK-DAG: "mem.global"() {sym_name = "[[G2:[^"]*]]", value = dense<[3, 4]> : tensor<2xi8>}
// CHECK-LABEL: func.func @two_globals
// CHECK-DAG: "mem.get_global"() {name = @[[G1]]}
// CHECK-DAG: "mem.get_global"() {name = @[[G2]]}
func.func @two_globals() -> tensor<2xi8> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  %b = stablehlo.constant dense<[3, 4]> : tensor<2xi8>
  %0 = stablehlo.add %a, %b : tensor<2xi8>
  return %0 : tensor<2xi8>
}
