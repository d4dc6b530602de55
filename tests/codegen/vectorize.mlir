// RUN: strata compile %s -o %t.ll --name t && FileCheck %s < %t.ll

// A fused element-wise loop over contiguous buffers is vectorised by LLVM:
// the add and multiply happen on vectors of floats, with no call per element.

// CHECK-LABEL: define internal {{.*}}@t.main(ptr
// CHECK: vector.body:
// CHECK: load <[[N:[0-9]+]] x float>
// CHECK: fadd {{(contract )?}}<[[N]] x float>
// CHECK: fmul {{(contract )?}}<[[N]] x float>
// CHECK: store <[[N]] x float>
// CHECK: ret void

func.func @main(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = stablehlo.add %a, %b : tensor<1024xf32>
  %1 = stablehlo.multiply %0, %a : tensor<1024xf32>
  return %1 : tensor<1024xf32>
}
