// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier message of the loop dialect (dialects/loop/src/lib.rs).

func.func @for_operand_count(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects 3 operands (lower bound, upper bound, step), found 2
  "loop.for"(%lb, %lb) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index) -> ()
  func.return
}

// -----

func.func @for_operand_type(%lb: index, %x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects operand #1 to be index, found i32
  "loop.for"(%lb, %x, %lb) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, i32, index) -> ()
  func.return
}

// -----

func.func @for_results(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects no results, found 1
  %r = "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> index
  func.return
}

// -----

func.func @for_no_region(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects one region, found 0
  "loop.for"(%lb, %lb, %lb) : (index, index, index) -> ()
  func.return
}

// -----

func.func @for_empty_region(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects exactly one block in its body region, found 0
  "loop.for"(%lb, %lb, %lb) ({
  }) : (index, index, index) -> ()
  func.return
}

// -----

func.func @for_block_args(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects its body block to have one index argument, found 2 arguments
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index, %j: index):
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// -----

func.func @for_terminator(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects its body region to end with 'loop.yield'
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    func.return
  }) : (index, index, index) -> ()
  func.return
}

// -----

func.func @if_condition(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects operand #0 to be i1, found i32
  "loop.if"(%x) ({
    "loop.yield"() : () -> ()
  }, {
  }) : (i32) -> ()
  func.return
}

// -----

func.func @if_operand_count(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects 1 operand (the condition), found 2
  "loop.if"(%c, %c) ({
    "loop.yield"() : () -> ()
  }, {
  }) : (i1, i1) -> ()
  func.return
}

// -----

func.func @if_regions(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects two regions (then, else), found 1
  "loop.if"(%c) ({
    "loop.yield"() : () -> ()
  }) : (i1) -> ()
  func.return
}

// -----

func.func @if_empty_then(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects exactly one block in its then region, found 0
  "loop.if"(%c) ({
  }, {
  }) : (i1) -> ()
  func.return
}

// -----

func.func @if_block_args(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects its then block to have no arguments
  "loop.if"(%c) ({
  ^bb0(%x: index):
    "loop.yield"() : () -> ()
  }, {
  }) : (i1) -> ()
  func.return
}

// -----

func.func @if_else_terminator(%c: i1, %m: memref<f32>, %v: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects its else region to end with 'loop.yield'
  "loop.if"(%c) ({
    "loop.yield"() : () -> ()
  }, {
    "mem.store"(%v, %m) : (f32, memref<f32>) -> ()
  }) : (i1) -> ()
  func.return
}

// -----

func.func @yield_operands(%lb: index) {
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.yield' op expects no operands and no results
    "loop.yield"(%i) : (index) -> ()
  }) : (index, index, index) -> ()
  func.return
}

// -----

func.func @yield_parent(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.yield' op expects parent op 'loop.for', 'loop.if' or 'loop.while', found 'func.func'
  "loop.yield"() : () -> ()
}

// -----

func.func @if_else_blocks(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.if' op expects at most one block in its else region, found 2
  "loop.if"(%c) ({
    "loop.yield"() : () -> ()
  }, {
  ^bb0:
    "loop.yield"() : () -> ()
  ^bb1:
    "loop.yield"() : () -> ()
  }) : (i1) -> ()
  func.return
}

// -----

func.func @while_operands(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.while' op expects no operands, found 1
  "loop.while"(%c) ({
    "loop.condition"(%c) : (i1) -> ()
  }, {
    "loop.yield"() : () -> ()
  }) : (i1) -> ()
  func.return
}

// -----

func.func @while_regions(%c: i1) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.while' op expects two regions (cond, body), found 1
  "loop.while"() ({
    "loop.condition"(%c) : (i1) -> ()
  }) : () -> ()
  func.return
}

// -----

func.func @while_cond_terminator() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.while' op expects its cond region to be one block ending with 'loop.condition'
  "loop.while"() ({
    "loop.yield"() : () -> ()
  }, {
    "loop.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

func.func @condition_operand(%x: i32) {
  "loop.while"() ({
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.condition' op expects one i1 operand and no results
    "loop.condition"(%x) : (i32) -> ()
  }, {
    "loop.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

// The enclosing loop.for also reports that its body does not end with loop.yield.
func.func @condition_parent(%c: i1, %lb: index) {
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.condition' op expects parent op 'loop.while'
    "loop.condition"(%c) : (i1) -> ()
  }) : (index, index, index) -> ()
  func.return
}

// -----

func.func @dispatch_operands(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.dispatch' op expects at least 3 operands (lower bound, upper bound, step), found 2
  "loop.dispatch"(%lb, %lb) {callee = @f, cost = 1 : i64} : (index, index) -> ()
  func.return
}

// -----

func.func @dispatch_bound_type(%lb: index, %x: i64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.dispatch' op expects operand #2 to be index, found i64
  "loop.dispatch"(%lb, %lb, %x) {callee = @f, cost = 1 : i64} : (index, index, i64) -> ()
  func.return
}

// -----

func.func @for_tile(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.for' op expects 'tile' to be array<i64: block, tile> with a positive tile dividing the block
  "loop.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) {tile = array<i64: 16, 3>} : (index, index, index) -> ()
  func.return
}

// -----

func.func @dispatch_callee(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.dispatch' op expects a symbol attribute 'callee'
  "loop.dispatch"(%lb, %lb, %lb) {callee = "f", cost = 1 : i64} : (index, index, index) -> ()
  func.return
}

// -----

func.func @dispatch_cost(%lb: index) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'loop.dispatch' op expects a positive integer attribute 'cost'
  "loop.dispatch"(%lb, %lb, %lb) {callee = @f, cost = 0 : i64} : (index, index, index) -> ()
  func.return
}
