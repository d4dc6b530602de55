// RUN: strata compile %s -o %t.ll -O 0 --name t && FileCheck %s < %t.ll

// Regression (tests/invalid/FUZZING.md): the body of public @main was emitted as the
// internal function `t__main`, the very name the C ABI gives to a public
// function @_main, so LLVM renamed the wrapper of @_main to `t__main.1` and
// the exported `t__main` was @main's body (no i32 result, other signature).
// Internal symbols must not collide with any exported P_f
// (compiler/aot / codegen naming of function bodies).

// CHECK-DAG: define i32 @t_main(ptr %0, ptr %1)
// CHECK-DAG: define i32 @t__main(ptr %0, ptr %1)
// CHECK-NOT: @t__main.{{[0-9]+}}(

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @_main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
