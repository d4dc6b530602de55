// RUN: not strata compile %s -o %t.o 2>&1 | FileCheck %s

// Regression (tests/invalid/FUZZING.md): a body-less (external) function keeps its bare
// name in the object, so a declaration named like a symbol the generated code
// itself uses (tanhf, expf, malloc, free, strata_rt_*) clashed with it:
// "internal compiler error: LLVM lowering failed: tanhf returns nothing",
// without a location. The clash must be a located user error.

// CHECK-NOT: internal compiler error
// CHECK: external-function.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}tanhf
func.func private @tanhf(tensor<4xf32>) -> tensor<4xf32>

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %a : tensor<4xf32>
  %1 = func.call @tanhf(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
