// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Regressions from fuzzing (tests/invalid/FUZZING.md, B21): the composite verifier only
// checked that 'decomposition' is a symbol, so a misspelt or mistyped decomposition
// reached convert-xla-to-loop, which calls it ("internal compiler error: ... 'func.call'
// op '@add_n.impl' does not reference a valid function").

func.func @ad1_n.impl(%arg0: tensor<i64>) -> tensor<i64> {
  return %arg0 : tensor<i64>
}

func.func @missing(%x: tensor<i64>) -> tensor<i64> {
  // CHECK-NOT: internal compiler error
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.composite' op '@add_n.impl' does not reference a valid function
  %0 = stablehlo.composite "stablehlo.add_n" %x {decomposition = @add_n.impl} : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @add_n.impl(%arg0: tensor<i32>) -> tensor<i32> {
  return %arg0 : tensor<i32>
}

func.func @mistyped(%x: tensor<i64>) -> tensor<i64> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.composite' op
  %0 = stablehlo.composite "stablehlo.add_n" %x {decomposition = @add_n.impl} : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// A composite whose decomposition exists and fits verifies.
func.func @add_n.impl(%arg0: tensor<i64>) -> tensor<i64> {
  return %arg0 : tensor<i64>
}

// CHECK-LABEL: func.func @fits
func.func @fits(%x: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.composite "stablehlo.add_n" %x {decomposition = @add_n.impl} : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}
