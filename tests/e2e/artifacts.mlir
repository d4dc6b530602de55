// Every artifact kind of `strata compile` (the extension of -o picks it), with the symbol
// prefix taken from the output name or --name.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: strata compile %s -o %t/libvecadd.so --header %t/vecadd.h
// RUN: nm -D --defined-only %t/libvecadd.so | FileCheck %s --check-prefix=SO
// RUN: nm -D --defined-only %t/libvecadd.so | FileCheck %s --check-prefix=HIDDEN
// RUN: FileCheck %s --check-prefix=HDR < %t/vecadd.h
// RUN: strata compile %s -o %t/libvecadd.a
// RUN: nm %t/libvecadd.a | FileCheck %s --check-prefix=AR
// RUN: nm %t/libvecadd.a | FileCheck %s --check-prefix=HIDDEN
// RUN: strata compile %s -o %t/k.o --name kern
// RUN: nm %t/k.o | FileCheck %s --check-prefix=OBJ
// RUN: strata compile %s -o %t/vecadd.ll
// RUN: FileCheck %s --check-prefix=LL < %t/vecadd.ll
// RUN: strata compile %s -o %t/vecadd.s
// RUN: FileCheck %s --check-prefix=ASM < %t/vecadd.s
// RUN: strata compile %s -o %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=LOW < %t/lowered.mlir
// RUN: not strata compile %s -o %t/vecadd.bin 2>&1 | FileCheck %s --check-prefix=BADEXT

// SO-DAG: T vecadd_main
// SO-DAG: T vecadd_scale
// SO-DAG: T vecadd_last_error
// SO-NOT: helper

// HDR: #ifndef [[GUARD:[A-Z_]+]]
// HDR: #include <stdint.h>
// HDR: #define VECADD_MAIN_ARG0_COUNT 8
// HDR: #define VECADD_MAIN_RES0_COUNT 8
// HDR: int32_t vecadd_main(const float *arg0, const float *arg1, float *res0);
// HDR: #define VECADD_SCALE_ARG0_COUNT 6
// HDR: int32_t vecadd_scale(const double *arg0, double *res0);
// HDR-NOT: helper
// HDR: const char *vecadd_last_error(void);
// HDR: #endif /* [[GUARD]] */

// AR-DAG: T vecadd_main
// AR-DAG: T vecadd_last_error

// The runtime inside a .so or .a is never global: only the model's symbols are.
// HIDDEN-NOT: {{[TDBRW]}} strata_rt_

// OBJ-DAG: T kern_main
// OBJ-DAG: T kern_scale

// LL: define {{.*}}i32 @vecadd_main(ptr

// ASM: vecadd_main:

// LOW: func.func @main(%{{.*}}: memref<8xf32>

// BADEXT: error: cannot tell the artifact kind

func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @scale(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = call @helper(%x) : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

func.func private @helper(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %c = stablehlo.constant dense<2.5> : tensor<2x3xf64>
  %0 = stablehlo.multiply %x, %c : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}
