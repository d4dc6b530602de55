// RUN: strata compile %s -o %t.so --header %t.h && FileCheck %s < %t.h

// The C header lists each exported function with its buffer element types
// and element counts.

// CHECK: #include <stdint.h>
// CHECK: #define [[P:.*]]_MAIN_ARG0_COUNT 6
// CHECK: #define [[P]]_MAIN_ARG1_COUNT 4
// CHECK: #define [[P]]_MAIN_ARG2_COUNT 2
// Complex numbers count as two values each.
// CHECK: #define [[P]]_MAIN_ARG3_COUNT 4
// CHECK: #define [[P]]_MAIN_RES0_COUNT 6
// CHECK: int32_t {{.*}}_main(const float *arg0, const uint8_t *arg1, const uint16_t *arg2, const double *arg3, float *res0, uint8_t *res1);
// CHECK-NOT: hidden
// CHECK: const char *{{.*}}_last_error(void);

func.func @main(%a: tensor<2x3xf32>, %p: tensor<4xi1>, %h: tensor<2xbf16>, %c: tensor<2xcomplex<f64>>) -> (tensor<2x3xf32>, tensor<4xi1>) {
  return %a, %p : tensor<2x3xf32>, tensor<4xi1>
}

func.func private @hidden(%a: tensor<ui8>) -> tensor<ui8> {
  return %a : tensor<ui8>
}
