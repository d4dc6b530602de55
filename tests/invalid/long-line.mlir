// RUN: { echo -n 'func.func @main() -> tensor<500000xf32> { %%0 = stablehlo.constant dense<['; \
// RUN:   seq 1 500000 | sed 's/$/.0/' | paste -sd, | tr -d '\n'; \
// RUN:   echo ']> : tensor<500000xf32> return %%0 : tensor<500000xf32> }'; } > %t.mlir
// RUN: ulimit -t 60 && strata opt %t.mlir --convert-xla-to-loop | FileCheck %s

// Regression (tests/invalid/FUZZING.md): the lexer computed every token's column by
// counting the characters from the start of its line
// (compiler/ir/src/text/lexer.rs, Lexer::location), so a long line took
// quadratic time: a 100,000-element constant on one line (as JAX prints
// weights) took 5 s, 1,000,000 elements 330 s. 500,000 elements must parse in
// well under a minute.

// CHECK: "mem.global"() {sym_name = "{{.*}}", value = dense<[1.0, 2.0, 3.0,
