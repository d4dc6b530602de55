// RUN: not strata compile %s -o %t.so --name t 2>&1 | FileCheck %s

// Regression (tests/invalid/FUZZING.md): a public function @last_error was exported as
// `t_last_error`, the runtime accessor's name; LLVM silently renamed the
// accessor to `t_last_error.2`, so C code calling t_last_error() per the
// header called the user function with no arguments. A public function whose
// exported name is reserved must be a located error.

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: {{.*}}last_error
func.func @last_error(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
