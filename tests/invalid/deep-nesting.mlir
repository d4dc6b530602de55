// RUN: { echo -n 'func.func @f() -> tensor<1xf32> { %%0 = stablehlo.constant dense<'; \
// RUN:   head -c 100000 /dev/zero | tr '\0' '['; echo -n '1.0'; head -c 100000 /dev/zero | tr '\0' ']'; \
// RUN:   echo '> : tensor<1xf32>'; echo 'return %%0 : tensor<1xf32> }'; } > %t.dense.mlir
// RUN: not strata opt %t.dense.mlir 2>&1 | FileCheck %s --check-prefix=DENSE
// RUN: { echo -n 'func.func @f(%%a: '; head -c 100000 /dev/zero | tr '\0' 'x' | sed 's/x/complex</g'; \
// RUN:   echo -n 'f32'; head -c 100000 /dev/zero | tr '\0' '>'; echo ') { return }'; } > %t.type.mlir
// RUN: not strata opt %t.type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE

// Regression from fuzzing (tests/invalid/FUZZING.md): the recursive-descent parser
// overflowed its stack ("fatal runtime error: stack overflow", SIGABRT) on
// about 30000 levels of nesting in a dense literal or a type
// (compiler/ir/src/text/parser.rs). Deep nesting must be a located error.

// DENSE: dense.mlir:1:{{[0-9]+}}: error:
// TYPE: type.mlir:1:{{[0-9]+}}: error:
