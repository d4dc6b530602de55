// RUN: not strata opt %s --split-input-file 2>&1 | FileCheck %s

// One case per verifier message of the arith dialect (dialects/arith/src/*.rs).

func.func @binary_operand_count(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.addi' op expects 2 operands, found 1
  %0 = "arith.addi"(%x) : (i32) -> i32
  func.return
}

// -----

func.func @binary_result_count(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.addi' op expects 1 result, found 2
  %0:2 = "arith.addi"(%x, %x) : (i32, i32) -> (i32, i32)
  func.return
}

// -----

func.func @int_op_on_float(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.muli' op expects the result to be an integer or index, found f32
  %0 = "arith.muli"(%x, %x) : (f32, f32) -> f32
  func.return
}

// -----

func.func @float_op_on_int(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.addf' op expects the result to be a float, found i32
  %0 = "arith.addf"(%x, %x) : (i32, i32) -> i32
  func.return
}

// -----

func.func @unary_float_on_int(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.tanh' op expects the result to be a float, found i32
  %0 = "arith.tanh"(%x) : (i32) -> i32
  func.return
}

// -----

func.func @unary_int_on_float(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.popcount' op expects the result to be an integer or index, found f32
  %0 = "arith.popcount"(%x) : (f32) -> f32
  func.return
}

// -----

func.func @mixed_operands(%x: i32, %y: i64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.subi' op expects operand #1 to have the result type i32, found i64
  %0 = "arith.subi"(%x, %y) : (i32, i64) -> i32
  func.return
}

// -----

func.func @cmpi_result(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.cmpi' op expects the result to be i1, found i32
  %0 = "arith.cmpi"(%x, %x) {predicate = "eq"} : (i32, i32) -> i32
  func.return
}

// -----

func.func @cmpi_on_float(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.cmpi' op expects operand #0 to be an integer or index, found f32
  %0 = "arith.cmpi"(%x, %x) {predicate = "eq"} : (f32, f32) -> i1
  func.return
}

// -----

func.func @cmpf_mixed(%x: f32, %y: f64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.cmpf' op expects operands of the same type, found f32 and f64
  %0 = "arith.cmpf"(%x, %y) {predicate = "oeq"} : (f32, f64) -> i1
  func.return
}

// -----

func.func @cmpi_predicate(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.cmpi' op has invalid predicate "olt"; expected one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge
  %0 = "arith.cmpi"(%x, %x) {predicate = "olt"} : (i32, i32) -> i1
  func.return
}

// -----

func.func @cmpf_no_predicate(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.cmpf' op requires a 'predicate' string attribute
  %0 = "arith.cmpf"(%x, %x) : (f32, f32) -> i1
  func.return
}

// -----

func.func @select_condition(%c: i32, %x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.select' op expects operand #0 to be i1, found i32
  %0 = "arith.select"(%c, %x, %x) : (i32, f32, f32) -> f32
  func.return
}

// -----

func.func @select_not_scalar(%c: i1, %m: memref<2xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.select' op expects the result to be a scalar, found memref<2xf32>
  %0 = "arith.select"(%c, %m, %m) : (i1, memref<2xf32>, memref<2xf32>) -> memref<2xf32>
  func.return
}

// -----

func.func @select_branches(%c: i1, %x: f32, %y: f64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.select' op expects operands #1 and #2 to have the result type f32, found f32 and f64
  %0 = "arith.select"(%c, %x, %y) : (i1, f32, f64) -> f32
  func.return
}

// -----

func.func @constant_no_value() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.constant' op requires a 'value' attribute
  %0 = "arith.constant"() : () -> i32
  func.return
}

// -----

func.func @constant_type() {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.constant' op expects a 'value' attribute of the result type i32, found 1.0 : f32
  %0 = "arith.constant"() {value = 1.0 : f32} : () -> i32
  func.return
}

// -----

func.func @constant_operands(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.constant' op expects 0 operands, found 1
  %0 = "arith.constant"(%x) {value = 1 : i32} : (i32) -> i32
  func.return
}

// -----

func.func @extsi_narrows(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.extsi' op expects the result to be wider than the operand, found i32 to i16
  %0 = "arith.extsi"(%x) : (i32) -> i16
  func.return
}

// -----

func.func @trunci_widens(%x: i8) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.trunci' op expects the result to be narrower than the operand, found i8 to i8
  %0 = "arith.trunci"(%x) : (i8) -> i8
  func.return
}

// -----

func.func @extui_float(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.extui' op expects operand #0 to be an integer, found f32
  %0 = "arith.extui"(%x) : (f32) -> i64
  func.return
}

// -----

func.func @sitofp_result(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.sitofp' op expects the result to be a float, found i64
  %0 = "arith.sitofp"(%x) : (i32) -> i64
  func.return
}

// -----

func.func @fptosi_operand(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.fptosi' op expects operand #0 to be a float, found i32
  %0 = "arith.fptosi"(%x) : (i32) -> i32
  func.return
}

// -----

func.func @extf_narrows(%x: f64) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.extf' op expects the result to be wider than the operand, found f64 to f32
  %0 = "arith.extf"(%x) : (f64) -> f32
  func.return
}

// -----

func.func @truncf_same(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.truncf' op expects different operand and result types
  %0 = "arith.truncf"(%x) : (f32) -> f32
  func.return
}

// -----

func.func @bitcast_width(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.bitcast' op expects operand and result of the same bit width, found f32 and i64
  %0 = "arith.bitcast"(%x) : (f32) -> i64
  func.return
}

// -----

func.func @bitcast_memref(%m: memref<2xf32>) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.bitcast' op expects operand #0 to be a scalar, found memref<2xf32>
  %0 = "arith.bitcast"(%m) : (memref<2xf32>) -> i64
  func.return
}

// -----

func.func @index_cast_float(%x: f32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.index_cast' op expects a cast between index and an integer, found f32 to index
  %0 = "arith.index_cast"(%x) : (f32) -> index
  func.return
}

// -----

func.func @trunci_to_float(%x: i32) {
  // CHECK: [[@LINE+1]]:{{[0-9]+}}: error: 'arith.trunci' op expects the result to be an integer, found f16
  %0 = "arith.trunci"(%x) : (i32) -> f16
  func.return
}
