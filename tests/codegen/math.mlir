// RUN: strata compile %s -o %t.ll --name t && FileCheck %s < %t.ll

// Transcendental functions: f32 exp, tanh and erf are inline polynomial code
// that vectorizes (no libm call); f64 tanh is libm's.

// CHECK-LABEL: define internal {{.*}}@t.main(ptr
// CHECK-NOT: @tanhf
// CHECK-NOT: @expf
// CHECK-NOT: @erff
// CHECK: <{{[0-9]+}} x float>
// CHECK: call {{.*}}double @tanh(double
// CHECK: ret void

func.func @main(%a: tensor<16xf32>, %b: tensor<16xf64>) -> (tensor<16xf32>, tensor<16xf64>, tensor<16xf32>) {
  %0 = stablehlo.tanh %a : tensor<16xf32>
  %1 = stablehlo.tanh %b : tensor<16xf64>
  %e = stablehlo.exponential %a : tensor<16xf32>
  %2 = chlo.erf %e : tensor<16xf32> -> tensor<16xf32>
  return %0, %1, %2 : tensor<16xf32>, tensor<16xf64>, tensor<16xf32>
}
