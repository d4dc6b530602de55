// RUN: not strata check %s 2>&1 | FileCheck %s

// run_parallel's results must have its programs' element types (found by
// fuzzing: the call it lowers to failed the IR verifier, an internal error).

module {
  func.func @replica_id() -> tensor<ui32> {
    %result = stablehlo.replica_id : tensor<ui32>
    return %result : tensor<ui32>
  }
  func.func @main() {
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: run_parallel's operand or result element types do not match those of @replica_id
    %results:2 = "interpreter.run_parallel"() {
      programs = [[@replica_id], [@replica_id]]
    } : () -> (tensor<ui32>, tensor<ui24>)
    check.expect_eq_const %results#0, dense<0> : tensor<ui32>
    func.return
  }
}
