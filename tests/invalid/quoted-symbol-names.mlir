// RUN: strata opt %s > %t.mlir && strata opt %t.mlir | FileCheck %s

// A function may be named anything (`@"..."`): printed IR quotes a name the
// lexer would not read bare, control characters escaped, so it parses back
// (found by fuzzing: a name holding a NUL byte printed bare did not).

// CHECK: func.func private @"a b\00c"(
// CHECK: func.func @main.x-1$(
// CHECK: "func.call"(%arg0) {callee = @"a b\00c"}

func.func private @"a b\00c"(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

func.func public @main.x-1$(%x: tensor<f32>) -> tensor<f32> {
  %0 = call @"a b\00c"(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
