use strata_ir::text::parser::parse_module;
use strata_ir::{Context, verify::verify};

fn check(text: &str) -> String {
    let mut ctx = Context::new();
    strata_ir::builtin::register(&mut ctx);
    crate::register(&mut ctx);
    let m = match parse_module(&mut ctx, "t.mlir", text) {
        Ok(m) => m,
        Err(d) => return ctx.sources.render(&d),
    };
    match verify(&ctx, m) {
        Ok(()) => String::new(),
        Err(errs) => errs.iter().map(|d| ctx.sources.render(d)).collect(),
    }
}

#[test]
fn accepts_well_formed_ops() {
    let text = r#"func.func @f(%a: f32, %b: f32, %i: i32, %u: ui8, %x: index, %h: f16) {
  %0 = "arith.addf"(%a, %b) : (f32, f32) -> f32
  %1 = "arith.tanh"(%0) : (f32) -> f32
  %2 = "arith.cmpf"(%0, %1) {predicate = "olt"} : (f32, f32) -> i1
  %3 = "arith.select"(%2, %0, %1) : (i1, f32, f32) -> f32
  %4 = "arith.maxui"(%u, %u) : (ui8, ui8) -> ui8
  %5 = "arith.extui"(%u) : (ui8) -> i32
  %6 = "arith.cmpi"(%5, %i) {predicate = "ult"} : (i32, i32) -> i1
  %7 = "arith.constant"() {value = 1.5 : f32} : () -> f32
  %8 = "arith.constant"() {value = true} : () -> i1
  %9 = "arith.constant"() {value = -3 : i32} : () -> i32
  %10 = "arith.index_cast"(%x) : (index) -> i32
  %11 = "arith.bitcast"(%a) : (f32) -> i32
  %12 = "arith.fptosi"(%a) : (f32) -> i64
  %13 = "arith.extf"(%h) : (f16) -> f32
  %14 = "arith.popcount"(%i) : (i32) -> i32
  %15 = "arith.addi"(%x, %x) : (index, index) -> index
  func.return
}
"#;
    assert_eq!(check(text), "");
}

#[test]
fn rejects_ill_formed_ops() {
    let text = r#"func.func @f(%a: f32, %b: f64, %i: i32) {
  %0 = "arith.addf"(%a, %b) : (f32, f64) -> f32
  %1 = "arith.cmpi"(%i, %i) {predicate = "lt"} : (i32, i32) -> i1
  %2 = "arith.addi"(%a, %a) : (f32, f32) -> f32
  %3 = "arith.trunci"(%i) : (i32) -> i64
  %4 = "arith.bitcast"(%b) : (f64) -> i32
  %5 = "arith.constant"() {value = 1.5 : f32} : () -> i32
  func.return
}
"#;
    let got = check(text);
    for want in [
        "t.mlir:2:8: error: 'arith.addf' op expects operand #1 to have the result type f32, found f64",
        "t.mlir:3:8: error: 'arith.cmpi' op has invalid predicate \"lt\"; expected one of eq, ne, slt",
        "t.mlir:4:8: error: 'arith.addi' op expects the result to be an integer or index, found f32",
        "t.mlir:5:8: error: 'arith.trunci' op expects the result to be narrower than the operand, found i32 to i64",
        "t.mlir:6:8: error: 'arith.bitcast' op expects operand and result of the same bit width, found f64 and i32",
        "t.mlir:7:8: error: 'arith.constant' op expects a 'value' attribute of the result type i32, found 1.5",
    ] {
        assert!(got.contains(want), "missing {want:?} in:\n{got}");
    }
}
