// RUN: strata compile %s -o %t.o --time-passes 2>&1 | FileCheck %s

// --time-passes prints the wall time of every pass in pipeline order, then
// the code generation phases and the link, as MLIR tools print it.

// CHECK: ... Execution time report ...
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK: xla-legalize-broadcast
// CHECK: convert-xla-to-loop
// CHECK: mem-reuse-buffers
// CHECK: loop-outline-parallel
// CHECK: codegen: lower to LLVM IR
// CHECK: codegen: LLVM optimisation
// CHECK: codegen: machine code
// CHECK: link / write the artifact
// CHECK: (100.0%)  Total

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
