// RUN: strata opt %s --convert-xla-to-loop | FileCheck %s

// A cheap element-wise value of buffers (x - mean) read by several ops is
// recomputed in each of their loops instead of written to a buffer and
// read back: the variance's reduction (which reads it twice, d * d) and the
// normalisation both subtract. An expensive one (exp) read at another index
// too keeps its buffer (read only at its own index, it is computed once in
// its readers' multi-output nest: multi-output.mlir).

// CHECK-LABEL: func.func @centred
// CHECK-NOT: "mem.alloc"
// CHECK: %[[D1:.*]] = "arith.subf"
// CHECK: %[[D2:.*]] = "arith.subf"
// CHECK: "arith.mulf"(%[[D1]], %[[D2]])
// CHECK: %[[D3:.*]] = "arith.subf"
// CHECK: "arith.mulf"(%[[D3]],
// CHECK-LABEL: func.func @expensive
// CHECK: "mem.alloc"() : () -> memref<4x8xf32>
// CHECK: "arith.exp"
func.func @centred(%x: tensor<4x8xf32>, %m: tensor<8xf32>, %s: tensor<8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4x8xf32>
  %sq = stablehlo.multiply %d, %d : tensor<4x8xf32>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %n = stablehlo.multiply %d, %sb : tensor<4x8xf32>
  return %v, %n : tensor<8xf32>, tensor<4x8xf32>
}
func.func @expensive(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = stablehlo.exponential %x : tensor<4x8xf32>
  %r = stablehlo.reverse %e, dims = [0] : tensor<4x8xf32>
  %a = stablehlo.add %r, %x : tensor<4x8xf32>
  %b = stablehlo.multiply %e, %x : tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
