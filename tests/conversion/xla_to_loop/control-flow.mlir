// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.while: the carried values live in buffers initialised from the
// operands; the cond region ends in loop.condition; the body writes its
// returned values back into the carried buffers and frees what it
// allocated, every iteration. %x, which the body passes through
// unchanged and reads with no kernel, is read where it lies, in the
// caller's buffer (see while-pass-through.mlir). The slot the function
// returns lives in the output buffer %arg1 itself: the final state is not
// copied there.
// CHECK-LABEL: func.func @scan
// CHECK-NOT: "mem.copy"(%arg0
// CHECK: "mem.copy"(%{{[0-9]+}}, %[[I:[0-9]+]]) : (memref<i32>
// CHECK: "mem.copy"(%{{[0-9]+}}, %[[S:[0-9]+]]) : (memref<f32>
// CHECK: "mem.copy"(%{{[0-9]+}}, %arg1) : (memref<6xf32>
// CHECK: "loop.while"() ({
// CHECK: "mem.load"(%[[I]])
// CHECK: "arith.cmpi"
// CHECK: "loop.condition"
// CHECK: }, {
// CHECK: %[[T:.*]] = "mem.alloc"() : () -> memref<f32>
// CHECK: "mem.load"(%arg0,
// CHECK: "mem.store"(%{{.*}}, %arg1,
// CHECK: "mem.copy"(%[[T]], %[[S]])
// CHECK: "mem.dealloc"(%[[T]])
// CHECK: "loop.yield"
// CHECK-NOT: "mem.copy"
// CHECK: "func.return"
func.func @scan(%x: tensor<6xf32>) -> tensor<6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:4 = stablehlo.while(%iterArg = %x, %iterArg_1 = %c, %iterArg_2 = %cst, %iterArg_3 = %1) : tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<6xf32>
    cond {
      %c_4 = stablehlo.constant dense<6> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %d = stablehlo.dynamic_slice %iterArg, %iterArg_1, sizes = [1] : (tensor<6xf32>, tensor<i32>) -> tensor<1xf32>
      %3 = stablehlo.reshape %d : (tensor<1xf32>) -> tensor<f32>
      %s = stablehlo.add %iterArg_2, %3 : tensor<f32>
      %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %5 = stablehlo.dynamic_update_slice %iterArg_3, %b, %iterArg_1 : (tensor<6xf32>, tensor<1xf32>, tensor<i32>) -> tensor<6xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %6, %s, %5 : tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<6xf32>
    }
    return %2#3 : tensor<6xf32>
}

// -----

// xla.case: the index selects a branch (out of range: the last one) through
// a loop.if chain; each arm writes its values into the result buffer.
// CHECK-LABEL: func.func @pick
// CHECK: "arith.cmpi"({{.*}}) {predicate = "eq"}
// CHECK: "loop.if"
// CHECK: "mem.copy"(%{{.*}}, %[[R:.*]])
// CHECK: "loop.if"
// CHECK: "mem.copy"(%{{.*}}, %[[R]])
func.func @pick(%i: tensor<i32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    %n = stablehlo.negate %a : tensor<2xf32>
    stablehlo.return %n : tensor<2xf32>
  }, {
    %m = stablehlo.multiply %a, %a : tensor<2xf32>
    stablehlo.return %m : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
