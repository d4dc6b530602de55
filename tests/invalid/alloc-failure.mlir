// RUN: not strata check %s 2>&1 | FileCheck %s

// Regression from fuzzing (tests/invalid/FUZZING.md): when a mem.alloc of an
// intermediate buffer fails (malloc returns NULL; here 2^46 f32 = 256 TiB,
// more than the address space), the generated code stored through the null
// pointer and `strata check` died with SIGSEGV. A failed allocation must be a
// runtime error (non-zero return, P_last_error set), reported as a failed
// piece.

// CHECK: error:
// CHECK: {{^}}0 passed, 1 failed{{$}}
func.func @main() {
  %0 = stablehlo.iota dim = 0 : tensor<70368744177664xf32>
  %1 = stablehlo.exponential %0 : tensor<70368744177664xf32>
  %2 = stablehlo.add %1, %1 : tensor<70368744177664xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.reduce(%2 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<70368744177664xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %3, dense<0.0> : tensor<f32>
  func.return
}
