// RUN: strata compile %s -o %t.so --print-ir-after=convert-xla-to-loop --print-ir-after=loop-outline-parallel 2>&1 | FileCheck %s
// RUN: strata opt %s --xla-legalize-broadcast --convert-xla-to-loop --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: not strata compile %s -o %t.so --print-ir-after=no-such-pass 2>&1 | FileCheck %s --check-prefix=BAD

// MLIR's spellings: the IR after the named passes (or all), on standard
// error, each under a "IR Dump After" line.

// CHECK: // -----// IR Dump After convert-xla-to-loop //----- //
// CHECK: "loop.for"
// CHECK-NOT: IR Dump After loop-fuse-parallel
// CHECK: // -----// IR Dump After loop-outline-parallel //----- //

// ALL: // -----// IR Dump After xla-legalize-broadcast //----- //
// ALL: xla.add
// ALL: // -----// IR Dump After convert-xla-to-loop //----- //
// ALL: "loop.for"

// BAD: error: unknown pass 'no-such-pass' in '--print-ir-after=no-such-pass'

func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
