// RUN: strata opt %s --split-input-file | strata opt /dev/stdin --split-input-file | FileCheck %s

// Regressions from fuzzing (tests/invalid/FUZZING.md, B17): `strata opt` printed
// `#sdy.sharding` and `#stablehlo.conv` as structs (`mesh = @mesh2, dims = ...`,
// `input_batch_dimension = 0 : i64, ...`), which their parsers rejected ("expected a
// mesh symbol, found 'mesh'", "expected '[', found 'input_batch_dimension'").
// Both forms parse now, so printed IR is valid input.

module {
  sdy.mesh @mesh2 = <["i"=2, "j"=2]>
  // CHECK-LABEL: func.func @manual
  func.func @manual(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: in_shardings = [#sdy.sharding<mesh = @mesh2, dims = {{\[\["i"\]\]}}>]
    // CHECK-SAME: out_shardings = [#sdy.sharding<mesh = @mesh2, dims = {{\[\["i"\]\]}}>]
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh2, [{"i"}]>] out_shardings=[<@mesh2, [{"i"}]>] manual_axes={"i"} (%a: tensor<2xf32>) {
      sdy.return %a : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// CHECK-LABEL: func.func @conv
func.func @conv(%lhs: tensor<1x3x3x2xf32>, %rhs: tensor<2x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  // CHECK: dimension_numbers = #stablehlo.conv<input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64
  // CHECK-SAME: output_spatial_dimensions = [1 : i64, 2 : i64]>
  %0 = stablehlo.convolution(%lhs, %rhs) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x2xf32>, tensor<2x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}
