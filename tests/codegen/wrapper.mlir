// RUN: strata compile %s -o %t.ll --name t && FileCheck %s < %t.ll
// RUN: strata compile %s -o %t.ll -O 0 --name t && FileCheck %s --check-prefix=O0 < %t.ll

// The C ABI: each public function @f becomes `i32 P_f(ptr args..., ptr
// results...)` returning 0 on success; private functions are not exported;
// P_last_error is always there.

// CHECK-DAG: define {{.*}}i32 @t_main(ptr {{.*}}%0, ptr {{.*}}%1, ptr {{.*}}%2, ptr {{.*}}%3)
// CHECK-DAG: define {{.*}}i32 @t_other(ptr {{.*}}%0, ptr {{.*}}%1)
// CHECK-DAG: define {{.*}}ptr @t_last_error()
// CHECK-NOT: define {{.*}}@t_hidden(

// Without optimisation: the wrapper clears the last error and returns the
// status of an internal body (0, or non-zero on a runtime error such as a
// failed allocation) whose buffer parameters are noalias.
// O0-DAG: define i32 @t_main(ptr %0, ptr %1, ptr %2, ptr %3)
// O0-DAG: define internal i32 @t.main(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3)
// O0-DAG: call void @strata_rt_clear_error()
// O0-DAG: %[[S:.*]] = call i32 @t.main(ptr %0, ptr %1, ptr %2, ptr %3)
// O0-DAG: ret i32 %[[S]]

func.func @main(%a: tensor<2x3xf32>, %p: tensor<4xi1>) -> (tensor<2x3xf32>, tensor<4xi1>) {
  %0 = stablehlo.negate %a : tensor<2x3xf32>
  %1 = stablehlo.not %p : tensor<4xi1>
  return %0, %1 : tensor<2x3xf32>, tensor<4xi1>
}

func.func @other(%a: tensor<ui8>) -> tensor<ui8> {
  %0 = call @hidden(%a) : (tensor<ui8>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

func.func private @hidden(%a: tensor<ui8>) -> tensor<ui8> {
  %0 = stablehlo.add %a, %a : tensor<ui8>
  return %0 : tensor<ui8>
}
