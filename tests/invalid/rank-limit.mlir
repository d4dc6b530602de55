// RUN: { echo -n 'func.func @main(%%a: tensor<'; for i in $(seq 65); do echo -n '1x'; done; \
// RUN:   echo 'f32>) { return }'; } > %t.65.mlir
// RUN: not strata compile %t.65.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=RANK65
// RUN: { echo -n 'func.func @main(%%a: tensor<'; for i in $(seq 64); do echo -n '1x'; done; \
// RUN:   echo 'f32>) { return }'; } > %t.64.mlir
// RUN: strata compile %t.64.mlir -o %t.o

// A shaped type's rank is limited (compiler/ir/src/text/parser/mod.rs,
// MAX_RANK = 64): every dimension becomes a loop, and LLVM's loop passes
// take time superlinear in the depth of a nest; a one-element tensor of
// rank 5,000 took more than 120 s to compile. Past the limit, the type is
// a located error; at the limit, the module compiles.

// RANK65: 65.mlir:1:21: error: shaped type has rank 65; the largest rank supported is 64
