// RUN: not strata opt %s --xla-jax-calling-convention 2>&1 | FileCheck %s

// An export for other platforms only is an error, located at the module.

// CHECK: xla-jax-calling-convention-invalid.mlir:[[@LINE+1]]:1: error: the module was exported for platforms cuda, rocm and not for cpu
module attributes {strata.platforms = ["cuda", "rocm"]} {
  func.func public @main(%arg0: tensor<i32> {jax.global_constant = "_platform_index"}) -> tensor<i32> {
    return %arg0 : tensor<i32>
  }
}
