// RUN: { echo -n 'func.func @main('; for i in $(seq 0 1024); do echo -n "%%a$i: tensor<4xf32>, "; done; \
// RUN:   echo '%%b: tensor<4xf32>) -> tensor<4xf32> {'; \
// RUN:   echo '  return %%b : tensor<4xf32>'; echo '}'; } > %t.mlir
// RUN: not strata compile --backend mlir %t.mlir -o %t.so 2>&1 | FileCheck %s
// RUN: strata compile %t.mlir -o %t.so

// Past 1,024 parameters the native backend passes a function's parameters
// packed (compiler/codegen/src/params.rs): one LLVM parameter per buffer
// costs LLVM memory quadratic in their number (20,000 took 7.4 GB). The
// upstream export passes them one by one, so it refuses such a function
// with a located error instead.

// CHECK: .mlir:1:1: error: unsupported: a function of 1027 parameters (more than 1024) is not supported by the upstream MLIR export (--backend mlir)
