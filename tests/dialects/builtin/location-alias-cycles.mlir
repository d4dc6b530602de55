// RUN: strata opt %s | FileCheck %s

// Location aliases that refer to themselves or to one another through call
// sites resolve to no source line, in bounded time: each call site tries
// its callee, then its caller, so an unbounded resolution took 2^64 steps
// (a fuzzing run of parse_mlir found it; the lit runner's timeout fails
// this test if it comes back).

// CHECK-LABEL: func.func @f
// CHECK: "func.return"
#l = loc(callsite(#l at #l))
#m = loc(callsite(#n at #l))
#n = loc(callsite(#m at #m))
func.func @f(%x: tensor<2xf32> loc(#n)) -> tensor<2xf32> {
  %y = stablehlo.add %x, %x : tensor<2xf32> loc(#m)
  return %y : tensor<2xf32> loc(#l)
}
