// RUN: strata opt %s | FileCheck %s
// RUN: strata opt %s | strata opt /dev/stdin | FileCheck %s

// Round trip of the arith dialect (generic syntax).

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: "arith.constant"() {value = 0 : index} : () -> index
  %0 = "arith.constant"() {value = 0 : index} : () -> index
  // CHECK: "arith.constant"() {value = -8 : i4} : () -> i4
  %1 = "arith.constant"() {value = -8 : i4} : () -> i4
  // CHECK: "arith.constant"() {value = 255 : ui8} : () -> ui8
  %2 = "arith.constant"() {value = 255 : ui8} : () -> ui8
  // CHECK: "arith.constant"() {value = true} : () -> i1
  %3 = "arith.constant"() {value = true} : () -> i1
  // CHECK: "arith.constant"() {value = 1.5 : f32} : () -> f32
  %4 = "arith.constant"() {value = 1.5 : f32} : () -> f32
  // CHECK: "arith.constant"() {value = -2.0 : bf16} : () -> bf16
  %6 = "arith.constant"() {value = -2.0 : bf16} : () -> bf16
  func.return
}

// CHECK-LABEL: func.func @int_ops
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @int_ops(%x: i32, %y: i32) -> i32 {
  // CHECK: %[[ADD:.*]] = "arith.addi"(%[[X]], %[[Y]]) : (i32, i32) -> i32
  %0 = "arith.addi"(%x, %y) : (i32, i32) -> i32
  // CHECK: "arith.subi"(%[[ADD]], %[[Y]])
  %1 = "arith.subi"(%0, %y) : (i32, i32) -> i32
  // CHECK: "arith.muli"
  %2 = "arith.muli"(%1, %y) : (i32, i32) -> i32
  // CHECK: "arith.divsi"
  %3 = "arith.divsi"(%2, %y) : (i32, i32) -> i32
  // CHECK: "arith.divui"
  %4 = "arith.divui"(%3, %y) : (i32, i32) -> i32
  // CHECK: "arith.remsi"
  %5 = "arith.remsi"(%4, %y) : (i32, i32) -> i32
  // CHECK: "arith.remui"
  %6 = "arith.remui"(%5, %y) : (i32, i32) -> i32
  // CHECK: "arith.andi"
  %7 = "arith.andi"(%6, %y) : (i32, i32) -> i32
  // CHECK: "arith.ori"
  %8 = "arith.ori"(%7, %y) : (i32, i32) -> i32
  // CHECK: "arith.xori"
  %9 = "arith.xori"(%8, %y) : (i32, i32) -> i32
  // CHECK: "arith.shli"
  %10 = "arith.shli"(%9, %y) : (i32, i32) -> i32
  // CHECK: "arith.shrsi"
  %11 = "arith.shrsi"(%10, %y) : (i32, i32) -> i32
  // CHECK: "arith.shrui"
  %12 = "arith.shrui"(%11, %y) : (i32, i32) -> i32
  // CHECK: "arith.maxsi"
  %13 = "arith.maxsi"(%12, %y) : (i32, i32) -> i32
  // CHECK: "arith.minsi"
  %14 = "arith.minsi"(%13, %y) : (i32, i32) -> i32
  // CHECK: "arith.maxui"
  %15 = "arith.maxui"(%14, %y) : (i32, i32) -> i32
  // CHECK: "arith.minui"
  %16 = "arith.minui"(%15, %y) : (i32, i32) -> i32
  // CHECK: "arith.ctlz"
  %17 = "arith.ctlz"(%16) : (i32) -> i32
  // CHECK: %[[POP:.*]] = "arith.popcount"
  %18 = "arith.popcount"(%17) : (i32) -> i32
  // CHECK: %[[CMP:.*]] = "arith.cmpi"(%[[POP]], %[[Y]]) {predicate = "ult"} : (i32, i32) -> i1
  %19 = "arith.cmpi"(%18, %y) {predicate = "ult"} : (i32, i32) -> i1
  // CHECK: %[[SEL:.*]] = "arith.select"(%[[CMP]], %[[POP]], %[[Y]]) : (i1, i32, i32) -> i32
  %20 = "arith.select"(%19, %18, %y) : (i1, i32, i32) -> i32
  // CHECK: "func.return"(%[[SEL]])
  func.return %20 : i32
}

// CHECK-LABEL: func.func @index_ops
func.func @index_ops(%i: index, %j: index) -> index {
  // CHECK: "arith.addi"(%{{.*}}, %{{.*}}) : (index, index) -> index
  %0 = "arith.addi"(%i, %j) : (index, index) -> index
  // CHECK: "arith.cmpi"(%{{.*}}, %{{.*}}) {predicate = "slt"} : (index, index) -> i1
  %1 = "arith.cmpi"(%0, %j) {predicate = "slt"} : (index, index) -> i1
  func.return %0 : index
}

// CHECK-LABEL: func.func @float_ops
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
func.func @float_ops(%x: f32, %y: f32) -> f32 {
  // CHECK: %[[ADD:.*]] = "arith.addf"(%[[X]], %[[Y]]) : (f32, f32) -> f32
  %0 = "arith.addf"(%x, %y) : (f32, f32) -> f32
  // CHECK: "arith.subf"(%[[ADD]], %[[Y]])
  %1 = "arith.subf"(%0, %y) : (f32, f32) -> f32
  // CHECK: "arith.mulf"
  %2 = "arith.mulf"(%1, %y) : (f32, f32) -> f32
  // CHECK: "arith.divf"
  %3 = "arith.divf"(%2, %y) : (f32, f32) -> f32
  // CHECK: "arith.remf"
  %4 = "arith.remf"(%3, %y) : (f32, f32) -> f32
  // CHECK: "arith.powf"
  %5 = "arith.powf"(%4, %y) : (f32, f32) -> f32
  // CHECK: "arith.atan2"
  %6 = "arith.atan2"(%5, %y) : (f32, f32) -> f32
  // CHECK: "arith.maximumf"
  %7 = "arith.maximumf"(%6, %y) : (f32, f32) -> f32
  // CHECK: "arith.minimumf"
  %8 = "arith.minimumf"(%7, %y) : (f32, f32) -> f32
  // CHECK: "arith.copysign"
  %9 = "arith.copysign"(%8, %y) : (f32, f32) -> f32
  // CHECK: "arith.negf"
  %10 = "arith.negf"(%9) : (f32) -> f32
  // CHECK: "arith.absf"
  %11 = "arith.absf"(%10) : (f32) -> f32
  // CHECK: "arith.sqrt"
  %12 = "arith.sqrt"(%11) : (f32) -> f32
  // CHECK: "arith.rsqrt"
  %13 = "arith.rsqrt"(%12) : (f32) -> f32
  // CHECK: "arith.exp"
  %14 = "arith.exp"(%13) : (f32) -> f32
  // CHECK: "arith.expm1"
  %15 = "arith.expm1"(%14) : (f32) -> f32
  // CHECK: "arith.log"
  %16 = "arith.log"(%15) : (f32) -> f32
  // CHECK: "arith.log1p"
  %17 = "arith.log1p"(%16) : (f32) -> f32
  // CHECK: "arith.sin"
  %18 = "arith.sin"(%17) : (f32) -> f32
  // CHECK: "arith.cos"
  %19 = "arith.cos"(%18) : (f32) -> f32
  // CHECK: "arith.tan"
  %20 = "arith.tan"(%19) : (f32) -> f32
  // CHECK: "arith.tanh"
  %21 = "arith.tanh"(%20) : (f32) -> f32
  // CHECK: "arith.floor"
  %22 = "arith.floor"(%21) : (f32) -> f32
  // CHECK: "arith.ceil"
  %23 = "arith.ceil"(%22) : (f32) -> f32
  // CHECK: "arith.round"
  %24 = "arith.round"(%23) : (f32) -> f32
  // CHECK: "arith.roundeven"
  %25 = "arith.roundeven"(%24) : (f32) -> f32
  // CHECK: %[[CBRT:.*]] = "arith.cbrt"
  %26 = "arith.cbrt"(%25) : (f32) -> f32
  // CHECK: "arith.cmpf"(%[[CBRT]], %[[Y]]) {predicate = "uno"} : (f32, f32) -> i1
  %27 = "arith.cmpf"(%26, %y) {predicate = "uno"} : (f32, f32) -> i1
  func.return %26 : f32
}

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[I8:.*]]: i8, %[[F:.*]]: f32, %[[H:.*]]: f16, %[[IX:.*]]: index)
func.func @casts(%i8: i8, %f: f32, %h: f16, %ix: index) {
  // CHECK: %[[W:.*]] = "arith.extsi"(%[[I8]]) : (i8) -> i32
  %0 = "arith.extsi"(%i8) : (i8) -> i32
  // CHECK: "arith.extui"(%[[I8]]) : (i8) -> i64
  %1 = "arith.extui"(%i8) : (i8) -> i64
  // CHECK: "arith.trunci"(%[[W]]) : (i32) -> i4
  %2 = "arith.trunci"(%0) : (i32) -> i4
  // CHECK: "arith.sitofp"(%[[I8]]) : (i8) -> f32
  %3 = "arith.sitofp"(%i8) : (i8) -> f32
  // CHECK: "arith.uitofp"(%[[I8]]) : (i8) -> f64
  %4 = "arith.uitofp"(%i8) : (i8) -> f64
  // CHECK: "arith.fptosi"(%[[F]]) : (f32) -> i16
  %5 = "arith.fptosi"(%f) : (f32) -> i16
  // CHECK: "arith.fptoui"(%[[F]]) : (f32) -> ui8
  %6 = "arith.fptoui"(%f) : (f32) -> ui8
  // CHECK: "arith.extf"(%[[H]]) : (f16) -> f32
  %7 = "arith.extf"(%h) : (f16) -> f32
  // CHECK: "arith.truncf"(%[[F]]) : (f32) -> bf16
  %8 = "arith.truncf"(%f) : (f32) -> bf16
  // f16 <-> bf16 changes format at the same width.
  // CHECK: "arith.truncf"(%[[H]]) : (f16) -> bf16
  %9 = "arith.truncf"(%h) : (f16) -> bf16
  // CHECK: "arith.bitcast"(%[[F]]) : (f32) -> i32
  %10 = "arith.bitcast"(%f) : (f32) -> i32
  // CHECK: "arith.index_cast"(%[[IX]]) : (index) -> i32
  %11 = "arith.index_cast"(%ix) : (index) -> i32
  // CHECK: "arith.index_cast"(%[[I8]]) : (i8) -> index
  %12 = "arith.index_cast"(%i8) : (i8) -> index
  func.return
}
