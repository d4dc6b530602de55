//! Importer tests: HLO text in, printed IR out. The expected IR is also
//! parsed as MLIR text and printed again, which must give the same text:
//! the importer builds what the MLIR (StableHLO) parser builds. Errors are
//! checked with their `line:col`.
//!
//! - `ops`: one test per op family, HLO next to the IR it imports to.
//! - `errors`: diagnostics and their locations; damaged input never panics.

mod errors;
mod ops;

use strata_ir::Context;
use strata_ir::text::printer::print_op;

use super::{import_module, looks_like_hlo};

pub(super) fn context() -> Context {
    let mut ctx = Context::new();
    strata_ir::builtin::register(&mut ctx);
    strata_dialect_xla::register(&mut ctx);
    ctx
}

/// Imports `hlo`, verifies it, and checks the printed module against
/// `expected`, which must also print back unchanged after parsing it.
pub(super) fn assert_imports_to(hlo: &str, expected: &str) {
    let mut ctx = context();
    let module = match import_module(&mut ctx, "t.hlo", hlo) {
        Ok(m) => m,
        Err(d) => panic!("import failed:\n{}", ctx.sources.render(&d)),
    };
    if let Err(errors) = strata_ir::verify::verify(&ctx, module) {
        let text: Vec<String> = errors.iter().map(|d| ctx.sources.render(d)).collect();
        panic!("verification failed:\n{}", text.join("\n"));
    }
    let printed = print_op(&ctx, module);
    assert_eq!(
        printed.trim_end(),
        expected.trim_end(),
        "imported IR differs"
    );
    // `#stablehlo.conv` prints in a form the MLIR parser does not read back.
    if !expected.contains("#stablehlo.conv") {
        let mut ctx = context();
        let reparsed = strata_ir::text::parser::parse_module(&mut ctx, "t.mlir", expected)
            .unwrap_or_else(|d| panic!("expected IR does not parse:\n{}", ctx.sources.render(&d)));
        assert_eq!(print_op(&ctx, reparsed).trim_end(), expected.trim_end());
    }
}

/// The first diagnostic of importing `hlo`, or else of verifying it, as
/// `line:col: message`.
pub(super) fn error_of(hlo: &str) -> String {
    let mut ctx = context();
    let d = match import_module(&mut ctx, "t.hlo", hlo) {
        Err(d) => d,
        Ok(module) => match strata_ir::verify::verify(&ctx, module) {
            Err(mut errors) => errors.remove(0),
            Ok(()) => panic!("expected an error"),
        },
    };
    // The rendering quotes the source line: the location must be in it.
    assert!(
        ctx.sources.render(&d).lines().count() >= 3,
        "no source line quoted"
    );
    format!("{}:{}: {}", d.loc.line, d.loc.col, d.message)
}

#[test]
fn detects_hlo_by_content() {
    assert!(looks_like_hlo("HloModule m\n"));
    assert!(looks_like_hlo(
        "// comment\n/* c */ HloModule m, entry_computation_layout={()->f32[]}"
    ));
    assert!(!looks_like_hlo("module @m {}"));
    assert!(!looks_like_hlo("HloModuleX"));
    assert!(!looks_like_hlo(""));
}

/// Every JAX-generated case of `tests/hlo/` imports and verifies.
#[test]
fn jax_generated_cases_import() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hlo");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/hlo exists") {
        let path = entry.expect("readable directory").path();
        if path.extension().is_none_or(|e| e != "hlo") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable file");
        let mut ctx = context();
        let name = path.display().to_string();
        let module = import_module(&mut ctx, &name, &text)
            .unwrap_or_else(|d| panic!("{}", ctx.sources.render(&d)));
        if let Err(errors) = strata_ir::verify::verify(&ctx, module) {
            panic!("{}", ctx.sources.render(&errors[0]));
        }
        count += 1;
    }
    assert!(count >= 20, "found only {count} cases in {}", dir.display());
}
