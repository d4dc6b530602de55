// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Attribute names that are not identifiers print as the strings they were
// read from, so the printed module parses again (found by fuzzing: a
// dimension variable named "a b" became a key of a dictionary, printed bare).

// CHECK: module attributes {"a b" = 1 : i64, outer = {"b;" = 2 : i64, "\1Db" = 3 : i64, plain.name = 4 : i64}} {
module attributes {"a b" = 1 : i64, outer = {"b;" = 2 : i64, "\1Db" = 3 : i64, plain.name = 4 : i64}} {
  // CHECK: func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> attributes {arg_attrs = [{"x y" = "z"}]}
  func.func @f(%arg0: tensor<2xf32> {"x y" = "z"}) -> tensor<2xf32> {
    return %arg0 : tensor<2xf32>
  }
}
