// RUN: strata opt %s --split-input-file --xla-inline | FileCheck %s

// JAX's helpers (`jnp.where` is `@_where`) are small: copied into every
// caller, operands and results wired through; the private helper, now
// unused, is removed.

// CHECK-LABEL: func.func @main
// CHECK-NOT: func.call
// CHECK: %[[A:.*]] = "xla.select"(%arg0, %arg1, %arg2)
// CHECK: %[[B:.*]] = "xla.select"(%arg0, %[[A]], %arg1)
// CHECK: "func.return"(%[[B]])
// CHECK-NOT: @_where
func.func @main(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @_where(%p, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = call @_where(%p, %0, %a) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @_where(%arg0: tensor<4xi1>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Helpers calling helpers inline from the bottom up, also into a while
// body; a public function called from another stays (it is exported) but
// its body is copied where it is called.

// CHECK-LABEL: func.func @outer
// CHECK-NOT: func.call
// CHECK: "xla.while"
// CHECK: "xla.negate"
// CHECK: "xla.exponential"
// CHECK-NOT: func.call
// CHECK-LABEL: func.func @exported
// CHECK: "xla.exponential"
// CHECK-NOT: @twice
func.func @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %w = func.call @twice(%v) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
    }
  return %r#1 : tensor<4xf32>
}
func.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  %1 = func.call @exported(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @exported(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A large private function called once moves into its caller (nothing is
// copied); called twice, it stays a function (a transformer layer written
// as one function compiles once).

// CHECK-LABEL: func.func @once
// CHECK-NOT: func.call
// CHECK: "xla.negate"
// CHECK-LABEL: func.func @twice_called
// CHECK: "func.call"(%arg0) {callee = @big}
// CHECK: "func.call"(%{{.*}}) {callee = @big}
// CHECK-LABEL: func.func private @big
// CHECK-NOT: func.func private @big_once
func.func @once(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @big_once(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @twice_called(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @big(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @big(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @big(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.add %0, %0 : tensor<4xf32>
  %2 = stablehlo.add %1, %1 : tensor<4xf32>
  %3 = stablehlo.add %2, %2 : tensor<4xf32>
  %4 = stablehlo.add %3, %3 : tensor<4xf32>
  %5 = stablehlo.add %4, %4 : tensor<4xf32>
  %6 = stablehlo.add %5, %5 : tensor<4xf32>
  %7 = stablehlo.add %6, %6 : tensor<4xf32>
  %8 = stablehlo.add %7, %7 : tensor<4xf32>
  %9 = stablehlo.add %8, %8 : tensor<4xf32>
  %10 = stablehlo.add %9, %9 : tensor<4xf32>
  %11 = stablehlo.add %10, %10 : tensor<4xf32>
  %12 = stablehlo.add %11, %11 : tensor<4xf32>
  %13 = stablehlo.add %12, %12 : tensor<4xf32>
  %14 = stablehlo.add %13, %13 : tensor<4xf32>
  %15 = stablehlo.add %14, %14 : tensor<4xf32>
  %16 = stablehlo.add %15, %15 : tensor<4xf32>
  %17 = stablehlo.add %16, %16 : tensor<4xf32>
  %18 = stablehlo.add %17, %17 : tensor<4xf32>
  %19 = stablehlo.add %18, %18 : tensor<4xf32>
  %20 = stablehlo.add %19, %19 : tensor<4xf32>
  %21 = stablehlo.add %20, %20 : tensor<4xf32>
  %22 = stablehlo.add %21, %21 : tensor<4xf32>
  %23 = stablehlo.add %22, %22 : tensor<4xf32>
  %24 = stablehlo.add %23, %23 : tensor<4xf32>
  %25 = stablehlo.add %24, %24 : tensor<4xf32>
  %26 = stablehlo.add %25, %25 : tensor<4xf32>
  %27 = stablehlo.add %26, %26 : tensor<4xf32>
  %28 = stablehlo.add %27, %27 : tensor<4xf32>
  %29 = stablehlo.add %28, %28 : tensor<4xf32>
  %30 = stablehlo.add %29, %29 : tensor<4xf32>
  %31 = stablehlo.add %30, %30 : tensor<4xf32>
  %32 = stablehlo.add %31, %31 : tensor<4xf32>
  %33 = stablehlo.add %32, %32 : tensor<4xf32>
  %34 = stablehlo.add %33, %33 : tensor<4xf32>
  %35 = stablehlo.add %34, %34 : tensor<4xf32>
  %36 = stablehlo.add %35, %35 : tensor<4xf32>
  %37 = stablehlo.add %36, %36 : tensor<4xf32>
  %38 = stablehlo.add %37, %37 : tensor<4xf32>
  %39 = stablehlo.add %38, %38 : tensor<4xf32>
  %40 = stablehlo.add %39, %39 : tensor<4xf32>
  %41 = stablehlo.add %40, %40 : tensor<4xf32>
  %42 = stablehlo.add %41, %41 : tensor<4xf32>
  %43 = stablehlo.add %42, %42 : tensor<4xf32>
  %44 = stablehlo.add %43, %43 : tensor<4xf32>
  %45 = stablehlo.add %44, %44 : tensor<4xf32>
  %46 = stablehlo.add %45, %45 : tensor<4xf32>
  %47 = stablehlo.add %46, %46 : tensor<4xf32>
  %48 = stablehlo.add %47, %47 : tensor<4xf32>
  %49 = stablehlo.add %48, %48 : tensor<4xf32>
  %50 = stablehlo.add %49, %49 : tensor<4xf32>
  %51 = stablehlo.add %50, %50 : tensor<4xf32>
  %52 = stablehlo.add %51, %51 : tensor<4xf32>
  %53 = stablehlo.add %52, %52 : tensor<4xf32>
  %54 = stablehlo.add %53, %53 : tensor<4xf32>
  %55 = stablehlo.add %54, %54 : tensor<4xf32>
  %56 = stablehlo.add %55, %55 : tensor<4xf32>
  %57 = stablehlo.add %56, %56 : tensor<4xf32>
  %58 = stablehlo.add %57, %57 : tensor<4xf32>
  %59 = stablehlo.add %58, %58 : tensor<4xf32>
  %60 = stablehlo.add %59, %59 : tensor<4xf32>
  %61 = stablehlo.add %60, %60 : tensor<4xf32>
  %62 = stablehlo.add %61, %61 : tensor<4xf32>
  %63 = stablehlo.add %62, %62 : tensor<4xf32>
  %64 = stablehlo.add %63, %63 : tensor<4xf32>
  %65 = stablehlo.add %64, %64 : tensor<4xf32>
  %66 = stablehlo.add %65, %65 : tensor<4xf32>
  %67 = stablehlo.add %66, %66 : tensor<4xf32>
  %68 = stablehlo.add %67, %67 : tensor<4xf32>
  %69 = stablehlo.add %68, %68 : tensor<4xf32>
  %70 = stablehlo.add %69, %69 : tensor<4xf32>
  return %70 : tensor<4xf32>
}
func.func private @big_once(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.add %0, %0 : tensor<4xf32>
  %2 = stablehlo.add %1, %1 : tensor<4xf32>
  %3 = stablehlo.add %2, %2 : tensor<4xf32>
  %4 = stablehlo.add %3, %3 : tensor<4xf32>
  %5 = stablehlo.add %4, %4 : tensor<4xf32>
  %6 = stablehlo.add %5, %5 : tensor<4xf32>
  %7 = stablehlo.add %6, %6 : tensor<4xf32>
  %8 = stablehlo.add %7, %7 : tensor<4xf32>
  %9 = stablehlo.add %8, %8 : tensor<4xf32>
  %10 = stablehlo.add %9, %9 : tensor<4xf32>
  %11 = stablehlo.add %10, %10 : tensor<4xf32>
  %12 = stablehlo.add %11, %11 : tensor<4xf32>
  %13 = stablehlo.add %12, %12 : tensor<4xf32>
  %14 = stablehlo.add %13, %13 : tensor<4xf32>
  %15 = stablehlo.add %14, %14 : tensor<4xf32>
  %16 = stablehlo.add %15, %15 : tensor<4xf32>
  %17 = stablehlo.add %16, %16 : tensor<4xf32>
  %18 = stablehlo.add %17, %17 : tensor<4xf32>
  %19 = stablehlo.add %18, %18 : tensor<4xf32>
  %20 = stablehlo.add %19, %19 : tensor<4xf32>
  %21 = stablehlo.add %20, %20 : tensor<4xf32>
  %22 = stablehlo.add %21, %21 : tensor<4xf32>
  %23 = stablehlo.add %22, %22 : tensor<4xf32>
  %24 = stablehlo.add %23, %23 : tensor<4xf32>
  %25 = stablehlo.add %24, %24 : tensor<4xf32>
  %26 = stablehlo.add %25, %25 : tensor<4xf32>
  %27 = stablehlo.add %26, %26 : tensor<4xf32>
  %28 = stablehlo.add %27, %27 : tensor<4xf32>
  %29 = stablehlo.add %28, %28 : tensor<4xf32>
  %30 = stablehlo.add %29, %29 : tensor<4xf32>
  %31 = stablehlo.add %30, %30 : tensor<4xf32>
  %32 = stablehlo.add %31, %31 : tensor<4xf32>
  %33 = stablehlo.add %32, %32 : tensor<4xf32>
  %34 = stablehlo.add %33, %33 : tensor<4xf32>
  %35 = stablehlo.add %34, %34 : tensor<4xf32>
  %36 = stablehlo.add %35, %35 : tensor<4xf32>
  %37 = stablehlo.add %36, %36 : tensor<4xf32>
  %38 = stablehlo.add %37, %37 : tensor<4xf32>
  %39 = stablehlo.add %38, %38 : tensor<4xf32>
  %40 = stablehlo.add %39, %39 : tensor<4xf32>
  %41 = stablehlo.add %40, %40 : tensor<4xf32>
  %42 = stablehlo.add %41, %41 : tensor<4xf32>
  %43 = stablehlo.add %42, %42 : tensor<4xf32>
  %44 = stablehlo.add %43, %43 : tensor<4xf32>
  %45 = stablehlo.add %44, %44 : tensor<4xf32>
  %46 = stablehlo.add %45, %45 : tensor<4xf32>
  %47 = stablehlo.add %46, %46 : tensor<4xf32>
  %48 = stablehlo.add %47, %47 : tensor<4xf32>
  %49 = stablehlo.add %48, %48 : tensor<4xf32>
  %50 = stablehlo.add %49, %49 : tensor<4xf32>
  %51 = stablehlo.add %50, %50 : tensor<4xf32>
  %52 = stablehlo.add %51, %51 : tensor<4xf32>
  %53 = stablehlo.add %52, %52 : tensor<4xf32>
  %54 = stablehlo.add %53, %53 : tensor<4xf32>
  %55 = stablehlo.add %54, %54 : tensor<4xf32>
  %56 = stablehlo.add %55, %55 : tensor<4xf32>
  %57 = stablehlo.add %56, %56 : tensor<4xf32>
  %58 = stablehlo.add %57, %57 : tensor<4xf32>
  %59 = stablehlo.add %58, %58 : tensor<4xf32>
  %60 = stablehlo.add %59, %59 : tensor<4xf32>
  %61 = stablehlo.add %60, %60 : tensor<4xf32>
  %62 = stablehlo.add %61, %61 : tensor<4xf32>
  %63 = stablehlo.add %62, %62 : tensor<4xf32>
  %64 = stablehlo.add %63, %63 : tensor<4xf32>
  %65 = stablehlo.add %64, %64 : tensor<4xf32>
  %66 = stablehlo.add %65, %65 : tensor<4xf32>
  %67 = stablehlo.add %66, %66 : tensor<4xf32>
  %68 = stablehlo.add %67, %67 : tensor<4xf32>
  %69 = stablehlo.add %68, %68 : tensor<4xf32>
  %70 = stablehlo.add %69, %69 : tensor<4xf32>
  return %70 : tensor<4xf32>
}
