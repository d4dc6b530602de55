// RUN: mkdir -p %t && strata compile %s -o %t/libmlp.ll && FileCheck %s < %t/libmlp.ll

// Without --name the symbol prefix is the output's stem without a leading
// `lib`.

// CHECK: define {{.*}}i32 @mlp_predict(ptr
// CHECK: define {{.*}}ptr @mlp_last_error()

func.func @predict(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
