// RUN: strata compile %s -o %t.ll --name t && FileCheck %s < %t.ll

// A sum over rows short enough for LLVM to unroll whole (32 elements, as a
// softmax over 32 keys) is still summed as vectors: the reduction's adds
// carry reassoc and nsz (LLVM's SLP vectorizer forms a horizontal
// reduction only from adds with both), and end in one vector reduction.

// CHECK-LABEL: define internal {{.*}}@t.main(ptr
// CHECK: fadd reassoc nsz {{(contract )?}}<[[N:[0-9]+]] x float>
// CHECK: call reassoc nsz {{(contract )?}}float @llvm.vector.reduce.fadd.v[[N]]f32(
// CHECK: ret void

func.func @main(%x: tensor<64x32xf32>) -> tensor<64xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<64x32xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}
