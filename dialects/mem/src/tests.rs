use strata_ir::text::parser::parse_module;
use strata_ir::{Context, verify::verify};

fn ctx() -> Context {
    let mut ctx = Context::new();
    strata_ir::builtin::register(&mut ctx);
    crate::register(&mut ctx);
    ctx
}

/// Parses and verifies `text`; returns the rendered errors (empty if valid).
fn check(text: &str) -> String {
    let mut ctx = ctx();
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
    let text = r#"
"mem.global"() {sym_name = "g", value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> ()
func.func @f(%a: memref<4x3xf32>, %c: memref<2xcomplex<f32>>, %i: index) {
  %v = "mem.load"(%a, %i, %i) : (memref<4x3xf32>, index, index) -> f32
  "mem.store"(%v, %a, %i, %i) : (f32, memref<4x3xf32>, index, index) -> ()
  %re = "mem.load_part"(%c, %i) {part = 1 : i64} : (memref<2xcomplex<f32>>, index) -> f32
  "mem.store_part"(%re, %c, %i) {part = 0 : i64} : (f32, memref<2xcomplex<f32>>, index) -> ()
  %g = "mem.get_global"() {name = @g} : () -> memref<2xf32>
  %h = "mem.alloc"() : () -> memref<2xf32>
  %s = "mem.alloca"() : () -> memref<12xf32>
  "mem.copy"(%g, %h) : (memref<2xf32>, memref<2xf32>) -> ()
  %w = "mem.view"(%a) : (memref<4x3xf32>) -> memref<12xf32>
  "mem.copy"(%w, %s) : (memref<12xf32>, memref<12xf32>) -> ()
  "mem.dealloc"(%h) : (memref<2xf32>) -> ()
  func.return
}
"#;
    assert_eq!(check(text), "");
}

#[test]
fn rejects_wrong_index_count() {
    let text = "func.func @f(%a: memref<4x3xf32>, %i: index) {\n  %v = \"mem.load\"(%a, %i) : (memref<4x3xf32>, index) -> f32\n  func.return\n}\n";
    let got = check(text);
    assert!(
        got.starts_with(
            "t.mlir:2:8: error: 'mem.load' op expects 2 indices for memref<4x3xf32>, found 1"
        ),
        "{got}"
    );
}

#[test]
fn rejects_bad_store_and_view() {
    let text = r#"func.func @f(%a: memref<4xf32>, %i: index, %x: f64) {
  "mem.store"(%x, %a, %i) : (f64, memref<4xf32>, index) -> ()
  %w = "mem.view"(%a) : (memref<4xf32>) -> memref<5xf32>
  %g = "mem.get_global"() {name = @nope} : () -> memref<2xf32>
  %p = "mem.load_part"(%a, %i) {part = 0 : i64} : (memref<4xf32>, index) -> f32
  func.return
}
"#;
    let got = check(text);
    assert!(
        got.contains(
            "t.mlir:2:3: error: 'mem.store' op expects a stored value of type f32, found f64"
        ),
        "{got}"
    );
    assert!(
        got.contains(
            "'mem.view' op expects a view of the same byte size, found memref<4xf32> (16 bytes) and memref<5xf32> (20 bytes)"
        ),
        "{got}"
    );
    assert!(
        got.contains("'mem.get_global' op '@nope' does not reference a valid 'mem.global'"),
        "{got}"
    );
    assert!(
        got.contains(
            "'mem.load_part' op expects a memref of complex elements, found element type f32"
        ),
        "{got}"
    );
}
