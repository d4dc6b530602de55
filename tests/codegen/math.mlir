// RUN: strata compile %s -o %t.ll --name t && FileCheck %s < %t.ll

// Transcendental functions reach libm (or LLVM intrinsics): tanh on f32 is a
// call to tanhf, on f64 a call to tanh.

// CHECK-LABEL: define {{.*}}i32 @t_main(ptr
// CHECK: call {{.*}}float @tanhf(float
// CHECK: call {{.*}}double @tanh(double
// CHECK: ret i32 0

func.func @main(%a: tensor<16xf32>, %b: tensor<16xf64>) -> (tensor<16xf32>, tensor<16xf64>) {
  %0 = stablehlo.tanh %a : tensor<16xf32>
  %1 = stablehlo.tanh %b : tensor<16xf64>
  return %0, %1 : tensor<16xf32>, tensor<16xf64>
}
