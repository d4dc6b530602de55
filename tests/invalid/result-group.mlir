// RUN: ulimit -v 1000000 && not strata opt %s 2>&1 | FileCheck %s

// Regression from fuzzing (tests/invalid/FUZZING.md): `%0:N` with a huge N made the
// parser build N result names ("%0#0" ... ) before looking at the op, taking
// time and memory proportional to N (compiler/ir/src/text/parser.rs,
// parse_op). A count that does not match the op's results must be a located
// error, found without materializing the names.

func.func @f() -> tensor<f32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error:
  %0:1000000000 = "xla.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  return %0#0 : tensor<f32>
}
