// RUN: strata opt %s --xla-fold-dot-convert | FileCheck %s

// A bf16 product used only by converts to f32 is produced in f32 (XLA:CPU
// never rounds it to bf16 in that case); the converts go.
// CHECK-LABEL: func.func @dot_to_f32
// CHECK: %[[D:.*]] = "xla.dot_general"(%arg0, %arg1) {{.*}} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
// CHECK-NOT: xla.convert
// CHECK: "xla.add"(%[[D]], %[[D]])
func.func @dot_to_f32(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %c0 = stablehlo.convert %d : (tensor<2x4xbf16>) -> tensor<2x4xf32>
  %c1 = stablehlo.convert %d : (tensor<2x4xbf16>) -> tensor<2x4xf32>
  %s = stablehlo.add %c0, %c1 : tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @conv_to_f32
// CHECK: "xla.convolution"{{.*}} -> tensor<1x1x2x2xf32>
// CHECK-NOT: xla.convert
func.func @conv_to_f32(%x: tensor<1x1x4x4xbf16>, %w: tensor<1x1x3x3xbf16>) -> tensor<1x1x2x2xf32> {
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x4x4xbf16>, tensor<1x1x3x3xbf16>) -> tensor<1x1x2x2xbf16>
  %f = stablehlo.convert %c : (tensor<1x1x2x2xbf16>) -> tensor<1x1x2x2xf32>
  return %f : tensor<1x1x2x2xf32>
}

// Another use of the bf16 product keeps the rounding.
// CHECK-LABEL: func.func @dot_also_used_in_bf16
// CHECK: "xla.dot_general"{{.*}} -> tensor<2x4xbf16>
// CHECK: "xla.convert"
func.func @dot_also_used_in_bf16(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> (tensor<2x4xf32>, tensor<2x4xbf16>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %c = stablehlo.convert %d : (tensor<2x4xbf16>) -> tensor<2x4xf32>
  return %c, %d : tensor<2x4xf32>, tensor<2x4xbf16>
}

// A convert to f16, and an f16 product, keep the rounding.
// CHECK-LABEL: func.func @other_types
// CHECK: "xla.dot_general"{{.*}} -> tensor<2x4xbf16>
// CHECK: "xla.convert"{{.*}} -> tensor<2x4xf16>
// CHECK: "xla.dot_general"{{.*}} -> tensor<2x4xf16>
// CHECK: "xla.convert"{{.*}} -> tensor<2x4xf32>
func.func @other_types(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %h: tensor<2x3xf16>, %k: tensor<3x4xf16>) -> (tensor<2x4xf16>, tensor<2x4xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %c = stablehlo.convert %d : (tensor<2x4xbf16>) -> tensor<2x4xf16>
  %e = stablehlo.dot_general %h, %k, contracting_dims = [1] x [0] : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  %f = stablehlo.convert %e : (tensor<2x4xf16>) -> tensor<2x4xf32>
  return %c, %f : tensor<2x4xf16>, tensor<2x4xf32>
}
