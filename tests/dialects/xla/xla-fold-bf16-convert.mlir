// RUN: strata opt %s --xla-fold-bf16-convert | FileCheck %s

// A bf16 product converted to f32 is produced in f32 (XLA:CPU never rounds
// it for those converts); the converts go.
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

// Another use of the bf16 product reads it rounded, by a convert behind
// the product; the convert to f32 reads the product.
// CHECK-LABEL: func.func @dot_also_used_in_bf16
// CHECK: %[[D:.*]] = "xla.dot_general"{{.*}} -> tensor<2x4xf32>
// CHECK-NEXT: %[[R:.*]] = "xla.convert"(%[[D]]) : (tensor<2x4xf32>) -> tensor<2x4xbf16>
// CHECK-NEXT: %[[M:.*]] = "xla.multiply"(%[[R]], %[[R]]) : (tensor<2x4xbf16>
// CHECK-NEXT: "func.return"(%[[D]], %[[M]])
func.func @dot_also_used_in_bf16(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> (tensor<2x4xf32>, tensor<2x4xbf16>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %c = stablehlo.convert %d : (tensor<2x4xbf16>) -> tensor<2x4xf32>
  %m = stablehlo.multiply %d, %d : tensor<2x4xbf16>
  return %c, %m : tensor<2x4xf32>, tensor<2x4xbf16>
}

// The last bf16 op before a convert to f32 computes in f32 on its operands
// converted (exactly); the op before it stays bf16 (rounded).
// CHECK-LABEL: func.func @last_op_unrounded
// CHECK: %[[P:.*]] = "xla.multiply"(%arg0, %arg1) : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<8xbf16>
// CHECK-NEXT: %[[PW:.*]] = "xla.convert"(%[[P]]) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[ZW:.*]] = "xla.convert"(%arg2) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[S:.*]] = "xla.add"(%[[PW]], %[[ZW]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: "func.return"(%[[S]])
func.func @last_op_unrounded(%x: tensor<8xbf16>, %y: tensor<8xbf16>, %z: tensor<8xbf16>) -> tensor<8xf32> {
  %p = stablehlo.multiply %x, %y : tensor<8xbf16>
  %s = stablehlo.add %p, %z : tensor<8xbf16>
  %c = stablehlo.convert %s : (tensor<8xbf16>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// A unary op likewise; its other use reads the rounded value.
// CHECK-LABEL: func.func @unary_used_twice
// CHECK: %[[XW:.*]] = "xla.convert"(%arg0) : (tensor<8xbf16>) -> tensor<8xf32>
// CHECK-NEXT: %[[E:.*]] = "xla.exponential"(%[[XW]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[R:.*]] = "xla.convert"(%[[E]]) : (tensor<8xf32>) -> tensor<8xbf16>
// CHECK-NEXT: "func.return"(%[[E]], %[[R]])
func.func @unary_used_twice(%x: tensor<8xbf16>) -> (tensor<8xf32>, tensor<8xbf16>) {
  %e = stablehlo.exponential %x : tensor<8xbf16>
  %c = stablehlo.convert %e : (tensor<8xbf16>) -> tensor<8xf32>
  return %c, %e : tensor<8xf32>, tensor<8xbf16>
}

// Rounded, as in XLA: a convert of a value only moved (transpose), of a
// remainder, and of an explicit f32 -> bf16 convert; a convert to f64.
// CHECK-LABEL: func.func @kept_rounded
// CHECK: "xla.add"{{.*}} -> tensor<2x2xbf16>
// CHECK: "xla.remainder"{{.*}} -> tensor<2x2xbf16>
// CHECK: "xla.convert"(%arg2) : (tensor<2x2xf32>) -> tensor<2x2xbf16>
// CHECK: "xla.multiply"{{.*}} -> tensor<2x2xbf16>
// CHECK: "xla.convert"{{.*}} -> tensor<2x2xf64>
func.func @kept_rounded(%x: tensor<2x2xbf16>, %y: tensor<2x2xbf16>, %f: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf64>) {
  %s = stablehlo.add %x, %y : tensor<2x2xbf16>
  %t = stablehlo.transpose %s, dims = [1, 0] : (tensor<2x2xbf16>) -> tensor<2x2xbf16>
  %c0 = stablehlo.convert %t : (tensor<2x2xbf16>) -> tensor<2x2xf32>
  %r = stablehlo.remainder %x, %y : tensor<2x2xbf16>
  %c1 = stablehlo.convert %r : (tensor<2x2xbf16>) -> tensor<2x2xf32>
  %n = stablehlo.convert %f : (tensor<2x2xf32>) -> tensor<2x2xbf16>
  %c2 = stablehlo.convert %n : (tensor<2x2xbf16>) -> tensor<2x2xf32>
  %m = stablehlo.multiply %x, %y : tensor<2x2xbf16>
  %c3 = stablehlo.convert %m : (tensor<2x2xbf16>) -> tensor<2x2xf64>
  return %c0, %c1, %c2, %c3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf64>
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
