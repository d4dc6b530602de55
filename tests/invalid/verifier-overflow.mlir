// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// Regressions from fuzzing (tests/invalid/FUZZING.md): shape arithmetic in the xla
// verifiers must not overflow (a panic in debug builds, a wrong shape in
// release builds); huge attribute values are reported as located errors.

// Slice: (limit - start + stride - 1) overflowed for a huge stride
// (dialects/xla/src/ops/shape.rs, verify_slice).
func.func @slice_huge_stride(%a: tensor<4xf32>) -> tensor<1xf32> {
  // A huge stride is valid here (one element); it must verify without overflow.
  // CHECK-NOT: error: 'xla.slice'
  %0 = stablehlo.slice %a [0:1:9223372036854775807] : (tensor<4xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// Pad: low + high + size overflowed (shape.rs, verify_pad).
func.func @pad_huge(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op
  %0 = stablehlo.pad %a, %v, low = [9223372036854775807], high = [9223372036854775807], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Pad: interior * (size - 1) overflowed.
func.func @pad_huge_interior(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.pad' op
  %0 = stablehlo.pad %a, %v, low = [0], high = [0], interior = [4611686018427387904] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Bitcast to a narrower type: `size as u32 * width` overflowed
// (dialects/xla/src/ops/elementwise.rs, verify_bitcast_convert).
func.func @bitcast_overflow(%a: tensor<4xf32>) -> tensor<4x2147483648xi8> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.bitcast_convert' op cannot bitcast tensor<4xf32> to tensor<4x2147483648xi8>
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x2147483648xi8>
  return %0 : tensor<4x2147483648xi8>
}

// -----

// ... and `as u32` truncated 4294967300 to 4, so this invalid bitcast was
// accepted (4 x i8 = 32 bits).
func.func @bitcast_truncated(%a: tensor<f32>) -> tensor<4294967300xi8> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.bitcast_convert' op cannot bitcast tensor<f32> to tensor<4294967300xi8>
  %0 = stablehlo.bitcast_convert %a : (tensor<f32>) -> tensor<4294967300xi8>
  return %0 : tensor<4294967300xi8>
}
