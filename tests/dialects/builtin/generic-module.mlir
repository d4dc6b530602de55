// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// A module written in MLIR's generic form is the module itself (as MLIR
// reads it), not an op nested in an implicit module: it prints as one
// module that parses again (found by fuzzing: the nested form did not).

// CHECK: {{^}}module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
// CHECK-NEXT: func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NOT: module
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32} : () -> ()
