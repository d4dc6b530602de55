// Integers of widths that are not a power of two (i24 here) occupy the next
// power-of-two number of bytes (4) in every buffer, the C ABI and the
// driver's literals: one rule, strata_abi::scalar_storage_bytes. Expected
// values computed with numpy (int64 arithmetic wrapped to 24 bits).

// RUN: strata run %s --function negate --input '[5, 7]' | FileCheck %s --check-prefix=NEG
// NEG: dense<[-5, -7]> : tensor<2xi24>
func.func @negate(%a: tensor<2xi24>) -> tensor<2xi24> {
  %0 = stablehlo.negate %a : tensor<2xi24>
  return %0 : tensor<2xi24>
}

// An i24 intermediate (16 bytes for 4 elements) and an i32 one of the same
// size share buffers by liveness; sort materializes both.
// RUN: strata run %s --function reuse --input '[5, -7, 8388607, -8388608]' --input '[3, 1, 2, 9]' | FileCheck %s --check-prefix=REUSE
// REUSE: dense<[0, 1, 25, 49]> : tensor<4xi24>
// REUSE-NEXT: dense<[18, 6, 4, 2]> : tensor<4xi32>
func.func @reuse(%a: tensor<4xi24>, %b: tensor<4xi32>) -> (tensor<4xi24>, tensor<4xi32>) {
  %1 = stablehlo.negate %a : tensor<4xi24>
  %2 = "stablehlo.sort"(%1) ({
    ^bb0(%x: tensor<i24>, %y: tensor<i24>):
      %c = stablehlo.compare LT, %x, %y : (tensor<i24>, tensor<i24>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xi24>) -> tensor<4xi24>
  %3 = stablehlo.add %b, %b : tensor<4xi32>
  %4 = "stablehlo.sort"(%3) ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %c = stablehlo.compare GT, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  %5 = stablehlo.multiply %2, %2 : tensor<4xi24>
  return %5, %4 : tensor<4xi24>, tensor<4xi32>
}
