// RUN: strata opt %s --split-input-file --convert-xla-to-loop | FileCheck %s

// xla.fft is not lowered to loops: it becomes a call to the runtime's
// strata_rt_fft(desc, in, out), declared once per module, with a constant
// strata_abi::FftDesc in i64 words: [kind (FFT 0, IFFT 1, RFFT 2, IRFFT 3),
// element part bits, rank, shape (padded with zeros to 16), fft_rank,
// fft_length (padded to 3)]. (The optional zero runs also accept the older
// unpadded layout.)

// CHECK: func.func private @strata_rt_fft(memref<0xi8>, memref<0xi8>, memref<0xi8>)
// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[0, 32, 1, 8, {{((0, ){15})?}}1, 8{{((, 0){2})?}}]> : tensor<{{6|23}}xi64>}
// CHECK-LABEL: func.func @fft
// CHECK-SAME: (%[[IN:.*]]: memref<8xcomplex<f32>>, %[[OUT:.*]]: memref<8xcomplex<f32>>)
// CHECK: %[[DESC:.*]] = "mem.get_global"() {name = @[[D]]}
// CHECK: "func.call"(%[[DESC]], %[[IN]], %[[OUT]]) {callee = @strata_rt_fft}
// CHECK-NOT: "loop.for"
func.func @fft(%a: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = FFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

// A 2-D real-to-complex transform in f64: kind 2, 64-bit parts, both
// dimensions transformed.

// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[2, 64, 2, 4, 6, {{((0, ){14})?}}2, 4, 6{{(, 0)?}}]> : tensor<{{8|23}}xi64>}
// CHECK-LABEL: func.func @rfft2
// CHECK-SAME: (%[[IN:.*]]: memref<4x6xf64>, %[[OUT:.*]]: memref<4x4xcomplex<f64>>)
// CHECK: %[[DESC:.*]] = "mem.get_global"() {name = @[[D]]}
// CHECK: "func.call"(%[[DESC]], %[[IN]], %[[OUT]]) {callee = @strata_rt_fft}
func.func @rfft2(%a: tensor<4x6xf64>) -> tensor<4x4xcomplex<f64>> {
  %0 = stablehlo.fft %a, type = RFFT, length = [4, 6] : (tensor<4x6xf64>) -> tensor<4x4xcomplex<f64>>
  return %0 : tensor<4x4xcomplex<f64>>
}

// -----

// A batched inverse real transform: the descriptor holds the operand's
// (complex) shape [3, 5] and the real output length 8 of the last dimension.

// CHECK: "mem.global"() {sym_name = "[[D:.*]]", value = dense<[3, 32, 2, 3, 5, {{((0, ){14})?}}1, 8{{((, 0){2})?}}]> : tensor<{{7|23}}xi64>}
// CHECK-LABEL: func.func @irfft
// CHECK-SAME: (%[[IN:.*]]: memref<3x5xcomplex<f32>>, %[[OUT:.*]]: memref<3x8xf32>)
// CHECK: %[[DESC:.*]] = "mem.get_global"() {name = @[[D]]}
// CHECK: "func.call"(%[[DESC]], %[[IN]], %[[OUT]]) {callee = @strata_rt_fft}
func.func @irfft(%a: tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32> {
  %0 = stablehlo.fft %a, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}
