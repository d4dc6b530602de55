// RUN: not strata check %s 2>&1 | FileCheck %s
// A run_parallel whose results are not its program's (found by the fuzz
// smoke: the lowered call failed the IR verifier) is a located error.

module {
  func.func @replica_id() -> tensor<ui32> {
    %result = stablehlo.replica_id : tensor<ui32>
    return %result : tensor<ui32>
  }
  func.func @main() {
    // CHECK: run-parallel-types.mlir:[[@LINE+1]]:{{[0-9]+}}: error: run_parallel's operand or result types do not match the signature of @replica_id
    %results:2 = "interpreter.run_parallel"() {
      programs = [[@replica_id], [@replica_id]]
    } : () -> (tensor<ui32>, tensor<ui24>)
    check.expect_eq_const %results#0, dense<0> : tensor<ui32>
    func.return
  }
}
