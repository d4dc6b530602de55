// RUN: strata check %s | FileCheck %s

// Regression from fuzzing (tests/invalid/FUZZING.md): `strata check` runs every public
// function without arguments, but called those that have results with no
// result buffers, so the generated code stored through garbage pointers and
// the driver died with SIGSEGV (tools/strata/src/check.rs, prepare: entries are
// filtered on inputs only). A zero-argument function with results must run
// (with scratch result buffers) and its checks count.

// CHECK: {{^}}2 passed, 0 failed{{$}}

func.func @returns_a_value() -> tensor<2xi8> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  %0 = stablehlo.add %a, %a : tensor<2xi8>
  check.expect_eq_const %0, dense<[2, 4]> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @returns_a_constant() -> (tensor<3xf32>, tensor<i1>) {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  check.expect_eq_const %a, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  return %a, %t : tensor<3xf32>, tensor<i1>
}
