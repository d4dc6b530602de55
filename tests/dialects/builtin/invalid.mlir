// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per message of the structural verifier (compiler/ir/src/verify.rs)
// and of the builtin ops' parsers and verifiers (compiler/ir/src/builtin.rs:
// module, func.func, func.return, func.call).

// ---- verify.rs ----

func.func @terminator_not_last(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.return' op must be the last operation in its block
  return %a : tensor<4xf32>
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.negate' op block must end with a terminator (like 'func.return')
  %0 = stablehlo.negate %a : tensor<4xf32>
}

// -----

func.func @no_terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'xla.negate' op block must end with a terminator (like 'func.return')
  %0 = stablehlo.negate %a : tensor<4xf32>
}

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.func' op has an empty block; expected a terminator
func.func @empty_body(%a: tensor<4xf32>) -> tensor<4xf32> {
}

// ---- builtin.rs (verifiers) ----

// -----

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
// CHECK: [[@LINE+2]]:{{[0-9]+}}: error: 'func.func' op redefinition of symbol '@f'
// CHECK: [[@LINE-4]]:{{[0-9]+}}: note: previous definition is here
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  return %a : tensor<3xf32>
}

// -----

// A module written in generic form beside other ops would be a nested module
// (found by fuzzing: it printed as `module {` inside a module, which no parser reads).
func.func @outer() {
  "func.return"() : () -> ()
}
// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'builtin.module' op is only allowed at the top level (nested modules are not supported)
"builtin.module"() ({
  func.func @inner() {
    "func.return"() : () -> ()
  }
}) : () -> ()

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.func' op requires a 'sym_name' string attribute
"func.func"() ({
^bb0(%a: tensor<4xf32>):
  "func.return"(%a) : (tensor<4xf32>) -> ()
}) {function_type = (tensor<4xf32>) -> tensor<4xf32>} : () -> ()

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.func' op requires a 'function_type' attribute of function type
"func.func"() ({
^bb0(%a: tensor<4xf32>):
  "func.return"(%a) : (tensor<4xf32>) -> ()
}) {sym_name = "f", function_type = 1 : i64} : () -> ()

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.func' op entry block arguments do not match the function signature
"func.func"() ({
^bb0(%a: tensor<4xi32>):
  "func.return"() : () -> ()
}) {sym_name = "f", function_type = (tensor<4xf32>) -> ()} : () -> ()

// -----

func.func @return_parent(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.return' op expects parent op 'func.func', found 'xla.reduce'
      "func.return"(%x) : (tensor<f32>) -> ()
    }
  return %0 : tensor<f32>
}

// -----

func.func @return_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.return' op has 2 operands, but enclosing function (@return_count) returns 1
  return %a, %a : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @return_type(%a: tensor<4xf32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.return' op type of return operand 0 (tensor<4xf32>) doesn't match function result type (tensor<4xi32>) in function @return_type
  return %a : tensor<4xf32>
}

// -----

func.func @call_no_callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.call' op requires a 'callee' symbol reference attribute
  %0 = "func.call"(%a) {callee = "g"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @call_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.call' op '@nope' does not reference a valid function
  %0 = call @nope(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @g(tensor<4xf32>) -> tensor<4xf32>

func.func @call_types(%a: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.call' op operand or result types do not match the signature of '@g'
  %0 = call @g(%a) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// ---- builtin.rs (parsers) ----

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected function name like @main, found string "f"
func.func "f"(%a: tensor<2xf32>) {
  return
}

// -----

// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: function with a body needs named arguments
func.func @unnamed(tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

func.func @call_callee(%a: tensor<2xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: expected callee symbol like @f, found string "f"
  call "f"(%a) : (tensor<2xf32>) -> ()
  return
}

// -----

// The visibility is printed as a keyword: another string would print as text
// no parser reads back (found by fuzzing).
// CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'func.func' op 'sym_visibility' must be "public", "private" or "nested"
"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "publicx"}> ({
  "func.return"() : () -> ()
}) : () -> ()
