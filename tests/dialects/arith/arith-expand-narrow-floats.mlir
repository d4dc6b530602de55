// RUN: strata opt %s --split-input-file --arith-expand-narrow-floats | FileCheck %s

// bf16 arithmetic computes in f32: each operand's bits shifted into an f32,
// the op in f32 (without `contract`: the rounding between a multiply and an
// add is part of the result), the result rounded to nearest even on its
// bits, a NaN kept quiet.

// CHECK-LABEL: func.func @add
// CHECK: %[[XB:.*]] = "arith.bitcast"(%arg0) : (bf16) -> i16
// CHECK-NEXT: %[[XW:.*]] = "arith.extui"(%[[XB]]) : (i16) -> i32
// CHECK-NEXT: %[[S:.*]] = "arith.constant"() {value = 16 : i32}
// CHECK-NEXT: %[[XH:.*]] = "arith.shli"(%[[XW]], %[[S]])
// CHECK-NEXT: %[[X:.*]] = "arith.bitcast"(%[[XH]]) : (i32) -> f32
// CHECK: %[[Y:.*]] = "arith.bitcast"(%{{.*}}) : (i32) -> f32
// CHECK-NEXT: %[[R:.*]] = "arith.addf"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NEXT: %[[RB:.*]] = "arith.bitcast"(%[[R]]) : (f32) -> i32
// CHECK-NEXT: %[[S2:.*]] = "arith.constant"() {value = 16 : i32}
// CHECK-NEXT: %[[HI:.*]] = "arith.shrui"(%[[RB]], %[[S2]])
// CHECK-NEXT: %[[ONE:.*]] = "arith.constant"() {value = 1 : i32}
// CHECK-NEXT: %[[LSB:.*]] = "arith.andi"(%[[HI]], %[[ONE]])
// CHECK-NEXT: %[[HALF:.*]] = "arith.constant"() {value = 32767 : i32}
// CHECK-NEXT: %[[BIAS:.*]] = "arith.addi"(%[[LSB]], %[[HALF]])
// CHECK-NEXT: %[[SUM:.*]] = "arith.addi"(%[[RB]], %[[BIAS]])
// CHECK-NEXT: %[[ROUNDED:.*]] = "arith.shrui"(%[[SUM]], %[[S2]])
// CHECK-NEXT: %[[QB:.*]] = "arith.constant"() {value = 64 : i32}
// CHECK-NEXT: %[[QUIET:.*]] = "arith.ori"(%[[HI]], %[[QB]])
// CHECK-NEXT: %[[NAN:.*]] = "arith.cmpf"(%[[R]], %[[R]]) {predicate = "uno"}
// CHECK-NEXT: %[[C:.*]] = "arith.select"(%[[NAN]], %[[QUIET]], %[[ROUNDED]])
// CHECK-NEXT: %[[N:.*]] = "arith.trunci"(%[[C]]) : (i32) -> i16
// CHECK-NEXT: %[[Z:.*]] = "arith.bitcast"(%[[N]]) : (i16) -> bf16
// CHECK-NEXT: "func.return"(%[[Z]])
func.func @add(%a: bf16, %b: bf16) -> bf16 {
  %s = "arith.addf"(%a, %b) {contract} : (bf16, bf16) -> bf16
  func.return %s : bf16
}

// -----

// f16: extf/truncf around the op; comparisons and float -> int
// conversions on the extended operands, nothing rounded back.

// CHECK-LABEL: func.func @f16
// CHECK-NEXT: %[[X:.*]] = "arith.extf"(%arg0) : (f16) -> f32
// CHECK-NEXT: %[[Y:.*]] = "arith.extf"(%arg1) : (f16) -> f32
// CHECK-NEXT: %[[M:.*]] = "arith.mulf"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NEXT: %[[R:.*]] = "arith.truncf"(%[[M]]) : (f32) -> f16
// CHECK-NEXT: %[[X2:.*]] = "arith.extf"(%arg0) : (f16) -> f32
// CHECK-NEXT: %[[Y2:.*]] = "arith.extf"(%arg1) : (f16) -> f32
// CHECK-NEXT: %[[C:.*]] = "arith.cmpf"(%[[X2]], %[[Y2]]) {predicate = "olt"} : (f32, f32) -> i1
// CHECK-NEXT: %[[X3:.*]] = "arith.extf"(%arg0) : (f16) -> f32
// CHECK-NEXT: %[[I:.*]] = "arith.fptosi"(%[[X3]]) : (f32) -> i32
// CHECK-NEXT: "func.return"(%[[R]], %[[C]], %[[I]])
func.func @f16(%a: f16, %b: f16) -> (f16, i1, i32) {
  %m = "arith.mulf"(%a, %b) : (f16, f16) -> f16
  %c = "arith.cmpf"(%a, %b) {predicate = "olt"} : (f16, f16) -> i1
  %i = "arith.fptosi"(%a) : (f16) -> i32
  func.return %m, %c, %i : f16, i1, i32
}

// -----

// Sign operations act on the sign bit of the 16 bits.

// CHECK-LABEL: func.func @signs
// CHECK-NEXT: %[[B:.*]] = "arith.bitcast"(%arg0) : (bf16) -> i16
// CHECK-NEXT: %[[SIGN:.*]] = "arith.constant"() {value = 32768 : i16}
// CHECK-NEXT: %[[N:.*]] = "arith.xori"(%[[B]], %[[SIGN]])
// CHECK-NEXT: %[[NEG:.*]] = "arith.bitcast"(%[[N]]) : (i16) -> bf16
// CHECK-NEXT: %[[B2:.*]] = "arith.bitcast"(%arg1) : (f16) -> i16
// CHECK-NEXT: %[[MAG:.*]] = "arith.constant"() {value = 32767 : i16}
// CHECK-NEXT: %[[A:.*]] = "arith.andi"(%[[B2]], %[[MAG]])
// CHECK-NEXT: %[[ABS:.*]] = "arith.bitcast"(%[[A]]) : (i16) -> f16
// CHECK-NEXT: "func.return"(%[[NEG]], %[[ABS]])
func.func @signs(%a: bf16, %h: f16) -> (bf16, f16) {
  %n = "arith.negf"(%a) : (bf16) -> bf16
  %b = "arith.absf"(%h) : (f16) -> f16
  func.return %n, %b : bf16, f16
}

// -----

// f64 -> bf16 rounds to odd in f32 first (one rounding in all); an integer
// goes to a 16-bit float through f64; f16 -> bf16 through f32. f16 <-> f32
// conversions stay.

// CHECK-LABEL: func.func @conversions
// CHECK-NEXT: %[[T:.*]] = "arith.truncf"(%arg0) : (f64) -> f32
// CHECK-NEXT: %[[BACK:.*]] = "arith.extf"(%[[T]]) : (f32) -> f64
// CHECK-NEXT: %[[INEXACT:.*]] = "arith.cmpf"(%[[BACK]], %arg0) {predicate = "one"}
// CHECK: %[[ODD:.*]] = "arith.ori"
// CHECK-NEXT: %[[CHOSEN:.*]] = "arith.select"(%[[INEXACT]], %[[ODD]], %{{.*}})
// CHECK-NEXT: %[[F:.*]] = "arith.bitcast"(%[[CHOSEN]]) : (i32) -> f32
// CHECK-NEXT: "arith.bitcast"(%[[F]]) : (f32) -> i32
// CHECK: %[[D:.*]] = "arith.sitofp"(%arg1) : (i32) -> f64
// CHECK-NEXT: %[[H:.*]] = "arith.truncf"(%[[D]]) : (f64) -> f16
// CHECK-NEXT: %[[HW:.*]] = "arith.extf"(%[[H]]) : (f16) -> f32
// CHECK-NEXT: "arith.bitcast"(%[[HW]]) : (f32) -> i32
// CHECK: %[[W:.*]] = "arith.extf"(%arg2) : (f16) -> f32
// CHECK-NEXT: "func.return"
func.func @conversions(%d: f64, %i: i32, %h: f16) -> (bf16, bf16, f32) {
  %t = "arith.truncf"(%d) : (f64) -> bf16
  %s = "arith.sitofp"(%i) : (i32) -> f16
  %b = "arith.extf"(%s) : (f16) -> bf16
  %w = "arith.extf"(%h) : (f16) -> f32
  func.return %t, %b, %w : bf16, bf16, f32
}

// -----

// expm1 on f16 follows XLA's formula, each step rounded to f16.

// CHECK-LABEL: func.func @expm1
// CHECK-NEXT: %[[X:.*]] = "arith.extf"(%arg0) : (f16) -> f32
// CHECK: %[[E:.*]] = "arith.exp"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: "arith.truncf"(%[[E]]) : (f32) -> f16
// CHECK: "arith.tanh"
// CHECK: "arith.cmpf"({{.*}}) {predicate = "ogt"}
// CHECK: %[[R:.*]] = "arith.select"(%{{.*}}, %[[X]], %{{.*}})
// CHECK-NEXT: %[[Z:.*]] = "arith.truncf"(%[[R]]) : (f32) -> f16
// CHECK-NEXT: "func.return"(%[[Z]])
func.func @expm1(%h: f16) -> f16 {
  %e = "arith.expm1"(%h) : (f16) -> f16
  func.return %e : f16
}

// -----

// Nested regions are rewritten too, uses inside them renamed; f32 code is
// left alone.

// CHECK-LABEL: func.func @nested
// CHECK: "loop.for"
// CHECK: %[[X:.*]] = "arith.extf"(%{{.*}}) : (f16) -> f32
// CHECK-NEXT: %[[S:.*]] = "arith.sqrt"(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %[[R:.*]] = "arith.truncf"(%[[S]]) : (f32) -> f16
// CHECK-NEXT: "mem.store"(%[[R]]
// CHECK-NEXT: "mem.load"
// CHECK-NEXT: %[[Y:.*]] = "arith.sqrt"(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: "mem.store"(%[[Y]]
func.func @nested(%a: memref<4xf16>, %b: memref<4xf32>) {
  %lb = "arith.constant"() {value = 0 : index} : () -> index
  %ub = "arith.constant"() {value = 4 : index} : () -> index
  %st = "arith.constant"() {value = 1 : index} : () -> index
  "loop.for"(%lb, %ub, %st) ({
  ^bb0(%i: index):
    %x = "mem.load"(%a, %i) : (memref<4xf16>, index) -> f16
    %s = "arith.sqrt"(%x) : (f16) -> f16
    "mem.store"(%s, %a, %i) : (f16, memref<4xf16>, index) -> ()
    %y = "mem.load"(%b, %i) : (memref<4xf32>, index) -> f32
    %t = "arith.sqrt"(%y) : (f32) -> f32
    "mem.store"(%t, %b, %i) : (f32, memref<4xf32>, index) -> ()
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}
