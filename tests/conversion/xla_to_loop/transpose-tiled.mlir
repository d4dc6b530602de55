// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s
// RUN: strata run %s --input "[[[1, 2], [3, 4]]]" --function small | FileCheck %s --check-prefix=SMALL

// A materialized transpose that moves the innermost dimension walks 32x32
// tiles of the two innermost result dimensions (outer loops step by 32).
// CHECK-LABEL: func.func @main
// CHECK: %[[T:.*]] = "arith.constant"() {value = 32 : index}
// CHECK: "loop.for"(%{{.*}}, %{{.*}}, %[[T]])
// CHECK: %[[T2:.*]] = "arith.constant"() {value = 32 : index}
// CHECK: "loop.for"(%{{.*}}, %{{.*}}, %[[T2]])
// CHECK: "arith.addi"
// CHECK: "mem.load"(%arg0
// CHECK: "mem.store"(%{{.*}}, %arg1
func.func @main(%a: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  return %0 : tensor<96x64xf32>
}

// Small shapes keep the plain loop nest.
// SMALL: dense<{{\[}}{{\[}}[1, 3], [2, 4]]]> : tensor<1x2x2xi32>
func.func @small(%a: tensor<1x2x2xi32>) -> tensor<1x2x2xi32> {
  %0 = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<1x2x2xi32>) -> tensor<1x2x2xi32>
  return %0 : tensor<1x2x2xi32>
}
