// RUN: strata compile %s -o %t.dot && FileCheck %s < %t.dot
// RUN: dot -Tsvg %t.dot -o %t.svg && FileCheck %s --check-prefix=SVG < %t.svg

// `-o M.dot` draws the module after the front passes: a cluster per
// function, arguments and results as ellipses, types on the edges, and the
// ops the lowering fuses into one loop nest in a dashed "fused" box (here
// the bias add and tanh into one nest; the kernel.gemm the dot became stands alone).

// CHECK: digraph strata {
// CHECK: subgraph cluster_f0 {
// CHECK-NEXT: label="@main";
// CHECK: f0_arg0 [shape=ellipse, label="%arg0\n4x8xf32"];
// CHECK: [label="kernel.gemm\n4x16xf32"];
// CHECK: label="fused"; style=dashed;
// CHECK-DAG: [label="xla.broadcast_in_dim\n4x16xf32"];
// CHECK-DAG: [label="xla.add\n4x16xf32"];
// CHECK-DAG: [label="xla.tanh\n4x16xf32"];
// CHECK: }
// CHECK: f0_arg0 -> {{f0_op[0-9]+}} [label="4x8xf32"];
// CHECK: -> {{f0_op[0-9]+}} [label="4x16xf32"];

// SVG: <svg
// SVG: @main
// SVG: xla.tanh

func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16xf32>
  %3 = stablehlo.tanh %2 : tensor<4x16xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %4 = stablehlo.reduce(%3 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
