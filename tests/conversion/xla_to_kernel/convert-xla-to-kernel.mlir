// RUN: strata opt %s --convert-xla-to-kernel | FileCheck %s

// Kernel selection: every float dot_general the runtime's GEMM computes
// becomes a kernel.gemm whose descriptor states M, N, K and each buffer's
// strides (in elements); the rest stays a dot_general for the loop path.

// A transformer's dense layer, x @ W with a rank-3 x: the free dimensions
// (1, 128) merge into M = 128; one GEMM, no batch.
// CHECK-LABEL: func.func @rank3_dense
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 128, 3072, 768>, lhs_strides = array<i64: 768, 1>, rhs_strides = array<i64: 3072, 1>, out_strides = array<i64: 3072, 1>, batch_sizes = array<i64>,
// CHECK-NOT: xla.dot_general
func.func @rank3_dense(%x: tensor<1x128x768xf32>, %w: tensor<768x3072xf32>) -> tensor<1x128x3072xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [2] x [0] : (tensor<1x128x768xf32>, tensor<768x3072xf32>) -> tensor<1x128x3072xf32>
  return %0 : tensor<1x128x3072xf32>
}

// x @ W.T (contracting [2] x [1]): the rhs is read across its rows, by
// strides (1, 768): no transposed copy.
// CHECK-LABEL: func.func @rhs_transposed
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 256, 50, 768>, lhs_strides = array<i64: 768, 1>, rhs_strides = array<i64: 1, 768>, out_strides = array<i64: 50, 1>
func.func @rhs_transposed(%h: tensor<2x128x768xf32>, %e: tensor<50x768xf32>) -> tensor<2x128x50xf32> {
  %0 = stablehlo.dot_general %h, %e, contracting_dims = [2] x [1] : (tensor<2x128x768xf32>, tensor<50x768xf32>) -> tensor<2x128x50xf32>
  return %0 : tensor<2x128x50xf32>
}

// Attention scores: batch (b, h), q . k^T over the head dimension.
// CHECK-LABEL: func.func @attention_scores
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 16, 16, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 1, 8>, out_strides = array<i64: 16, 1>, batch_sizes = array<i64: 2, 4>, lhs_batch_strides = array<i64: 512, 128>, rhs_batch_strides = array<i64: 512, 128>, out_batch_strides = array<i64: 1024, 256>}
func.func @attention_scores(%q: tensor<2x4x16x8xf32>, %k: tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32> {
  %0 = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<2x4x16x8xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x16xf32>
  return %0 : tensor<2x4x16x16xf32>
}

// Free dimensions that do not merge (0 and 2 around the contracting 1):
// the inner one is M, the outer one a batch that leaves the rhs in place.
// CHECK-LABEL: func.func @split_free_dims
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 16, 5, 4>, lhs_strides = array<i64: 1, 16>, rhs_strides = array<i64: 5, 1>, out_strides = array<i64: 5, 1>, batch_sizes = array<i64: 8>, lhs_batch_strides = array<i64: 64>, rhs_batch_strides = array<i64: 0>, out_batch_strides = array<i64: 80>}
func.func @split_free_dims(%a: tensor<8x4x16xf32>, %b: tensor<4x5xf32>) -> tensor<8x16x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x4x16xf32>, tensor<4x5xf32>) -> tensor<8x16x5xf32>
  return %0 : tensor<8x16x5xf32>
}

// bf16 operands: the bf16 kernel reads them as they are and sums in f32;
// a bf16 result is the f32 product rounded once.
// CHECK-LABEL: func.func @bf16_product
// CHECK-NOT: xla.convert
// CHECK: %[[P:.*]] = "kernel.gemm"(%arg0, %arg1) {{.*}} : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf32>
// CHECK: "xla.convert"(%[[P]]) : (tensor<4x2xf32>) -> tensor<4x2xbf16>
func.func @bf16_product(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xbf16>
  return %0 : tensor<4x2xbf16>
}

// bf16 operands with an f32 result (`preferred_element_type=f32`): the
// kernel's result is the dot's. A transposed bf16 weight is strides.
// CHECK-LABEL: func.func @bf16_to_f32_transposed
// CHECK-NOT: xla.convert
// CHECK: "kernel.gemm"(%arg0, %arg1) {{.*}}rhs_strides = array<i64: 1, 8>{{.*}} : (tensor<4x8xbf16>, tensor<6x8xbf16>) -> tensor<4x6xf32>
// CHECK-NEXT: return
func.func @bf16_to_f32_transposed(%a: tensor<4x8xbf16>, %b: tensor<6x8xbf16>) -> tensor<4x6xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<4x8xbf16>, tensor<6x8xbf16>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// f16 (no kernel of its own) and bf16 with an f64 result: widened around
// an f32 (f64) GEMM.
// CHECK-LABEL: func.func @f16_product
// CHECK: "xla.convert"(%arg0) : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK: "kernel.gemm"{{.*}} -> tensor<4x2xf32>
// CHECK-LABEL: func.func @bf16_to_f64
// CHECK: "xla.convert"(%arg0) : (tensor<4x8xbf16>) -> tensor<4x8xf64>
// CHECK: "kernel.gemm"{{.*}} -> tensor<4x2xf64>
func.func @f16_product(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> tensor<4x2xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}
func.func @bf16_to_f64(%a: tensor<4x8xbf16>, %b: tensor<8x2xbf16>) -> tensor<4x2xf64> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xbf16>, tensor<8x2xbf16>) -> tensor<4x2xf64>
  return %0 : tensor<4x2xf64>
}

// Contracting dimensions in different orders in the two operands: no
// stride merges them, so the loop path keeps the product. Integers too.
// CHECK-LABEL: func.func @unmergeable_contraction
// CHECK: "xla.dot_general"
// CHECK-LABEL: func.func @integers
// CHECK: "xla.dot_general"
func.func @unmergeable_contraction(%a: tensor<5x3x4xf32>, %b: tensor<4x3x6xf32>) -> tensor<5x6xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1, 2] x [1, 0] : (tensor<5x3x4xf32>, tensor<4x3x6xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
func.func @integers(%a: tensor<4x8xi32>, %b: tensor<8x2xi32>) -> tensor<4x2xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xi32>, tensor<8x2xi32>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// A 1x1 convolution in NHWC is one GEMM over the positions: batch and
// spatial dimensions merge into M = 2*5*6, K = input features, N = output.
// CHECK-LABEL: func.func @conv1x1_nhwc
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 60, 4, 8>, lhs_strides = array<i64: 8, 1>, rhs_strides = array<i64: 4, 1>, out_strides = array<i64: 4, 1>, batch_sizes = array<i64>,
// CHECK-NOT: xla.convolution
func.func @conv1x1_nhwc(%x: tensor<2x5x6x8xf32>, %w: tensor<1x1x8x4xf32>) -> tensor<2x5x6x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x6x8xf32>, tensor<1x1x8x4xf32>) -> tensor<2x5x6x4xf32>
  return %0 : tensor<2x5x6x4xf32>
}

// In NCHW the positions are columns: M = H*W (strides 1), the batch a
// batch dimension; a 3x3 window stays a convolution.
// CHECK-LABEL: func.func @conv1x1_nchw
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 30, 4, 8>, lhs_strides = array<i64: 1, 30>, rhs_strides = array<i64: 1, 8>, out_strides = array<i64: 1, 30>, batch_sizes = array<i64: 2>, lhs_batch_strides = array<i64: 240>, rhs_batch_strides = array<i64: 0>, out_batch_strides = array<i64: 120>}
// CHECK-LABEL: func.func @conv3x3
// CHECK: "xla.convolution"
func.func @conv1x1_nchw(%x: tensor<2x8x5x6xf32>, %w: tensor<4x8x1x1xf32>) -> tensor<2x4x5x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x5x6xf32>, tensor<4x8x1x1xf32>) -> tensor<2x4x5x6xf32>
  return %0 : tensor<2x4x5x6xf32>
}
func.func @conv3x3(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// A bf16 convolution too small for im2col + GEMM becomes the same
// convolution in f32 between converts (the direct loop nest).
// CHECK-LABEL: func.func @conv3x3_bf16
// CHECK: %[[X:.*]] = "xla.convert"(%arg0) : (tensor<1x5x5x2xbf16>) -> tensor<1x5x5x2xf32>
// CHECK: %[[W:.*]] = "xla.convert"(%arg1) : (tensor<3x3x2x2xbf16>) -> tensor<3x3x2x2xf32>
// CHECK: %[[C:.*]] = "xla.convolution"(%[[X]], %[[W]]) {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: "xla.convert"(%[[C]]) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xbf16>
func.func @conv3x3_bf16(%x: tensor<1x5x5x2xbf16>, %w: tensor<3x3x2x2xbf16>) -> tensor<1x3x3x2xbf16> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xbf16>, tensor<3x3x2x2xbf16>) -> tensor<1x3x3x2xbf16>
  return %0 : tensor<1x3x3x2xbf16>
}

// i8 x i8 -> i32: the i8 kernel, its sums wrapping as XLA's i32 sums do;
// an i8 result (jnp's default for int8 @ int8) is those sums truncated,
// which is the i8 sum wrapped.
// CHECK-LABEL: func.func @int8_product
// CHECK-NOT: xla.convert
// CHECK: "kernel.gemm"(%arg0, %arg1) {{.*}} : (tensor<4x300xi8>, tensor<300x5xi8>) -> tensor<4x5xi32>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @int8_to_int8
// CHECK: %[[P:.*]] = "kernel.gemm"(%arg0, %arg1) {{.*}} -> tensor<4x5xi32>
// CHECK: "xla.convert"(%[[P]]) : (tensor<4x5xi32>) -> tensor<4x5xi8>
func.func @int8_product(%a: tensor<4x300xi8>, %b: tensor<300x5xi8>) -> tensor<4x5xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x300xi8>, tensor<300x5xi8>) -> tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}
func.func @int8_to_int8(%a: tensor<4x300xi8>, %b: tensor<300x5xi8>) -> tensor<4x5xi8> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x300xi8>, tensor<300x5xi8>) -> tensor<4x5xi8>
  return %0 : tensor<4x5xi8>
}

// i16 operands (no integer kernel): in f64 between converts, while every
// partial sum is an integer f64 holds exactly and the total fits i32.
// CHECK-LABEL: func.func @int16_product
// CHECK: "xla.convert"(%arg0) : (tensor<4x30xi16>) -> tensor<4x30xf64>
// CHECK: %[[P:.*]] = "kernel.gemm"{{.*}} -> tensor<4x5xf64>
// CHECK: "xla.convert"(%[[P]]) : (tensor<4x5xf64>) -> tensor<4x5xi64>
func.func @int16_product(%a: tensor<4x30xi16>, %b: tensor<30x5xi16>) -> tensor<4x5xi64> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x30xi16>, tensor<30x5xi16>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}

// Operands seen through transposes and unit-dim reshapes are read through
// strides from their source (a decode step's key cache: no transposed
// copy), and a product whose only use is a transpose is written in the
// transposed layout (a gradient's (dy^T x)^T).
// CHECK-LABEL: func.func @decode_scores
// CHECK-NOT: xla.transpose
// CHECK-NOT: xla.reshape
// CHECK: "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 1, 32, 16>, lhs_strides = array<i64: 0, 1>, rhs_strides = array<i64: 1, 64>, out_strides = array<i64: 0, 1>, batch_sizes = array<i64: 4>, lhs_batch_strides = array<i64: 16>, rhs_batch_strides = array<i64: 16>, out_batch_strides = array<i64: 32>}
func.func @decode_scores(%q: tensor<1x1x4x16xf32>, %k: tensor<1x32x4x16xf32>) -> tensor<4x1x32xf32> {
  %qt = stablehlo.transpose %q, dims = [0, 2, 1, 3] : (tensor<1x1x4x16xf32>) -> tensor<1x4x1x16xf32>
  %kt = stablehlo.transpose %k, dims = [0, 2, 1, 3] : (tensor<1x32x4x16xf32>) -> tensor<1x4x32x16xf32>
  %ktt = stablehlo.transpose %kt, dims = [0, 1, 3, 2] : (tensor<1x4x32x16xf32>) -> tensor<1x4x16x32xf32>
  %qr = stablehlo.reshape %qt : (tensor<1x4x1x16xf32>) -> tensor<4x1x16xf32>
  %kr = stablehlo.reshape %ktt : (tensor<1x4x16x32xf32>) -> tensor<4x16x32xf32>
  %0 = stablehlo.dot_general %qr, %kr, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x1x16xf32>, tensor<4x16x32xf32>) -> tensor<4x1x32xf32>
  return %0 : tensor<4x1x32xf32>
}

// CHECK-LABEL: func.func @gradient_transposed
// CHECK: %[[G:.*]] = "kernel.gemm"(%arg0, %arg1) {mnk = array<i64: 7, 9, 12>, lhs_strides = array<i64: 1, 7>, rhs_strides = array<i64: 9, 1>, out_strides = array<i64: 1, 7>, {{.*}} -> tensor<9x7xf32>
// CHECK-NOT: xla.transpose
// CHECK: "func.return"(%[[G]])
func.func @gradient_transposed(%dy: tensor<12x7xf32>, %x: tensor<12x9xf32>) -> tensor<9x7xf32> {
  %0 = stablehlo.dot_general %dy, %x, contracting_dims = [0] x [0] : (tensor<12x7xf32>, tensor<12x9xf32>) -> tensor<7x9xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<7x9xf32>) -> tensor<9x7xf32>
  return %1 : tensor<9x7xf32>
}

// A large transpose that moves the innermost dimension, of an argument, is
// returned: it becomes the runtime's blocked transpose, 2-D blocks of
// (rows = the operand dimension that becomes innermost, columns = the
// operand's innermost) over the other dimensions.
// CHECK-LABEL: func.func @transpose_kernel
// CHECK: "kernel.transpose"(%arg0) {rows_cols = array<i64: 256, 512>, row_strides = array<i64: 512, 256>, outer_sizes = array<i64>, src_outer_strides = array<i64>, dst_outer_strides = array<i64>} : (tensor<256x512xf32>) -> tensor<512x256xf32>
// CHECK-LABEL: func.func @transpose_kernel_outer
// CHECK: "kernel.transpose"(%arg0) {rows_cols = array<i64: 64, 128>, row_strides = array<i64: 128, 512>, outer_sizes = array<i64: 8>, src_outer_strides = array<i64: 8192>, dst_outer_strides = array<i64: 64>} : (tensor<8x64x128xi32>) -> tensor<128x8x64xi32>
func.func @transpose_kernel(%x: tensor<256x512xf32>) -> tensor<512x256xf32> {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<256x512xf32>) -> tensor<512x256xf32>
  return %0 : tensor<512x256xf32>
}
func.func @transpose_kernel_outer(%x: tensor<8x64x128xi32>) -> tensor<128x8x64xi32> {
  %0 = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<8x64x128xi32>) -> tensor<128x8x64xi32>
  return %0 : tensor<128x8x64xi32>
}

// Transposes the loop nest computes better stay: read by an element-wise
// op (fused into its loop), of an element-wise value (computed as it is
// transposed), small, of 8-byte elements, or keeping the innermost
// dimension (a copy of rows).
// CHECK-LABEL: func.func @transpose_loops
// CHECK-NOT: kernel.transpose
// CHECK: "func.return"
func.func @transpose_loops(%x: tensor<256x512xf32>, %s: tensor<32x32xf32>, %d: tensor<256x512xf64>, %r: tensor<64x32x64xf32>)
    -> (tensor<512x256xf32>, tensor<512x256xf32>, tensor<32x32xf32>, tensor<512x256xf64>, tensor<32x64x64xf32>) {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<256x512xf32>) -> tensor<512x256xf32>
  %1 = stablehlo.add %0, %0 : tensor<512x256xf32>
  %2 = stablehlo.multiply %x, %x : tensor<256x512xf32>
  %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<256x512xf32>) -> tensor<512x256xf32>
  %4 = stablehlo.transpose %s, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %5 = stablehlo.transpose %d, dims = [1, 0] : (tensor<256x512xf64>) -> tensor<512x256xf64>
  %6 = stablehlo.transpose %r, dims = [1, 0, 2] : (tensor<64x32x64xf32>) -> tensor<32x64x64xf32>
  return %1, %3, %4, %5, %6 : tensor<512x256xf32>, tensor<512x256xf32>, tensor<32x32xf32>, tensor<512x256xf64>, tensor<32x64x64xf32>
}

// A larger convolution becomes kernel.conv (im2col + GEMM) with its K
// columns in the kernel's layout order when the GEMM can read the kernel in
// place: HWIO (H, W, I) x O as stored, OIHW (I, H, W) transposed. A
// reversed window packs the kernel (no kernel_in_place); a grouped one
// is one kernel.conv too (a batched GEMM over its groups), but a depthwise
// one (one input feature per group) stays a convolution (the direct loop
// nest); bf16 operands stay bf16 (the patches too, for the bf16 GEMM),
// summed in f32 and rounded once.
// CHECK-LABEL: func.func @conv_hwio
// CHECK: "kernel.conv"(%arg0, %arg1) {{.*}}columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 32, 1>}
// CHECK-LABEL: func.func @conv_oihw
// CHECK: "kernel.conv"(%arg0, %arg1) {{.*}}columns = array<i64: -1, 0, 1>, kernel_in_place = array<i64: 1, 144>}
// CHECK-LABEL: func.func @conv_reversed
// CHECK: "kernel.conv"(%arg0, %arg1) {{.*}}columns = array<i64: -1, 0, 1>}
// CHECK-LABEL: func.func @conv_grouped
// CHECK: "kernel.conv"(%arg0, %arg1) {{.*}}feature_group_count = 2 : i64{{.*}}columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 32, 1>}
// CHECK-LABEL: func.func @conv_depthwise
// CHECK: "xla.convolution"
// CHECK-LABEL: func.func @conv_bf16
// CHECK-NOT: xla.convert
// CHECK: %[[C:.*]] = "kernel.conv"(%arg0, %arg1) {{.*}} : (tensor<1x8x8x16xbf16>, tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT: "xla.convert"(%[[C]]) : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xbf16>
func.func @conv_hwio(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
func.func @conv_oihw(%x: tensor<1x16x8x8xf32>, %k: tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32>
  return %0 : tensor<1x32x8x8xf32>
}
func.func @conv_reversed(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], reverse = [true, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
func.func @conv_grouped(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
func.func @conv_depthwise(%x: tensor<1x8x8x16xf32>, %k: tensor<3x3x1x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<1x8x8x16xf32>, tensor<3x3x1x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}
func.func @conv_bf16(%x: tensor<1x8x8x16xbf16>, %k: tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xbf16> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x16xbf16>, tensor<3x3x16x32xbf16>) -> tensor<1x8x8x32xbf16>
  return %0 : tensor<1x8x8x32xbf16>
}

// A large batch of tiny products (128 of 8x8 by 8x8: 512 multiply-adds
// each) stays a dot_general: the loops beat a GEMM call per product. Larger
// products in the same batch (16x32 by 32x32: 16,384) take the kernel.

// CHECK-LABEL: func.func @tiny_batched
// CHECK: "xla.dot_general"
// CHECK-NOT: kernel.gemm
// CHECK-LABEL: func.func @small_batched
// CHECK: kernel.gemm
// CHECK-NOT: xla.dot_general
func.func @tiny_batched(%a: tensor<128x8x8xf32>, %b: tensor<128x8x8xf32>) -> tensor<128x8x8xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<128x8x8xf32>, tensor<128x8x8xf32>) -> tensor<128x8x8xf32>
  return %0 : tensor<128x8x8xf32>
}
func.func @small_batched(%a: tensor<128x16x32xf32>, %b: tensor<128x32x32xf32>) -> tensor<128x16x32xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<128x16x32xf32>, tensor<128x32x32xf32>) -> tensor<128x16x32xf32>
  return %0 : tensor<128x16x32xf32>
}

// A convolution to few f32 features (at most 4) whose patches per image
// exceed 256 KiB is packed and multiplied block by block of output rows:
// position_block is the most rows whose patches fit (a row here: 64
// positions x 288 columns x 4 bytes = 72 KiB, so 3 would fit; 2 is the
// largest that divides 64). Small patch matrices, more features, bf16
// operands and grouped convolutions keep one patch matrix per image.
// CHECK-LABEL: func.func @conv_to_few_features
// CHECK: "kernel.conv"(%arg0, %arg1) {{.*}}columns = array<i64: 0, 1, -1>, kernel_in_place = array<i64: 3, 1>, position_block = 2 : i64}
// CHECK: "kernel.conv"(%arg0, %arg2) {{.*}}kernel_in_place = array<i64: 4, 1>, position_block = 2 : i64}
// CHECK: "kernel.conv"(%arg0, %arg3) {{.*}}kernel_in_place = array<i64: 5, 1>}
// CHECK: "kernel.conv"(%arg4, %arg1) {{.*}}kernel_in_place = array<i64: 3, 1>}
// CHECK-LABEL: func.func @conv_to_few_features_nchw
// CHECK: "kernel.conv"(%arg0, %arg1) {{.*}}kernel_in_place = array<i64: 1, 288>, position_block = 2 : i64}
func.func @conv_to_few_features(%x: tensor<2x64x64x32xf32>, %k3: tensor<3x3x32x3xf32>, %k4: tensor<3x3x32x4xf32>, %k5: tensor<3x3x32x5xf32>, %small: tensor<2x8x8x32xf32>) -> (tensor<2x64x64x3xf32>, tensor<2x64x64x4xf32>, tensor<2x64x64x5xf32>, tensor<2x8x8x3xf32>) {
  %0 = stablehlo.convolution(%x, %k3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x64x64x32xf32>, tensor<3x3x32x3xf32>) -> tensor<2x64x64x3xf32>
  %1 = stablehlo.convolution(%x, %k4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x64x64x32xf32>, tensor<3x3x32x4xf32>) -> tensor<2x64x64x4xf32>
  %2 = stablehlo.convolution(%x, %k5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x64x64x32xf32>, tensor<3x3x32x5xf32>) -> tensor<2x64x64x5xf32>
  %3 = stablehlo.convolution(%small, %k3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x32xf32>, tensor<3x3x32x3xf32>) -> tensor<2x8x8x3xf32>
  return %0, %1, %2, %3 : tensor<2x64x64x3xf32>, tensor<2x64x64x4xf32>, tensor<2x64x64x5xf32>, tensor<2x8x8x3xf32>
}
func.func @conv_to_few_features_nchw(%x: tensor<2x32x64x64xf32>, %k: tensor<3x32x3x3xf32>) -> tensor<2x3x64x64xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x32x64x64xf32>, tensor<3x32x3x3xf32>) -> tensor<2x3x64x64xf32>
  return %0 : tensor<2x3x64x64xf32>
}
