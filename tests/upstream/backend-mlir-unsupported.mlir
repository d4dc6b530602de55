// RUN: not strata compile --backend mlir %s -o %t.so 2>&1 | FileCheck %s
// What the upstream backend does not cover is a located error, not a crash.

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: backend-mlir-unsupported.mlir:[[@LINE+1]]:8: error: unsupported: custom_call @my_op (host custom calls run with --backend native) is not supported by the upstream MLIR export (--backend mlir)
  %0 = stablehlo.custom_call @my_op(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
