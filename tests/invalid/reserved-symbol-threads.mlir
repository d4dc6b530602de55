// RUN: not strata compile %s -o %t.so --name t 2>&1 | FileCheck %s

// `P_set_num_threads` belongs to the library's API (like `P_last_error`): a
// public function of that name is a located error.

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: {{.*}}set_num_threads
func.func @set_num_threads(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
