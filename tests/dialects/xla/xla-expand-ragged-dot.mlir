// RUN: strata opt %s --xla-expand-ragged-dot | FileCheck %s

// A ragged_dot (rows of the lhs in groups, one rhs matrix per group) becomes
// the dot of every row with every group's matrix, the group bounds from a
// masked sum of the sizes, and a sum over the group dimension that keeps
// each row's own group.

// CHECK-LABEL: func.func @mode1
// CHECK-NOT: ragged_dot
// CHECK: %[[FULL:.*]] = "xla.dot_general"(%arg0, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1 : i64], rhs_contracting_dimensions = [1 : i64]>} : (tensor<6x4xf32>, tensor<3x4x5xf32>) -> tensor<6x3x5xf32>
// CHECK: %[[END:.*]] = "xla.reduce"
// CHECK: }) {dimensions = array<i64: 1>} : (tensor<3x3xi64>, tensor<i64>) -> tensor<3xi64>
// CHECK: %[[START:.*]] = "xla.subtract"(%[[END]], %arg2)
// CHECK: %[[ROW:.*]] = "xla.iota"() {iota_dimension = 0 : i64} : () -> tensor<6x3x5xi64>
// CHECK: "xla.select"(%{{.*}}, %[[FULL]], %{{.*}})
// CHECK: %[[R:.*]] = "xla.reduce"
// CHECK: }) {dimensions = array<i64: 1>} : (tensor<6x3x5xf32>, tensor<f32>) -> tensor<6x5xf32>
// CHECK: "func.return"(%[[R]])
func.func @mode1(%lhs: tensor<6x4xf32>, %rhs: tensor<3x4x5xf32>, %sizes: tensor<3xi64>) -> tensor<6x5xf32> {
  %r = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<6x4xf32>, tensor<3x4x5xf32>, tensor<3xi64>) -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}
