//! What every fuzz target checks: user input gives located errors, never a
//! panic, never an internal compiler error. A failed check panics, which
//! libFuzzer reports as a crash and saves as an artifact.

pub mod generate;

use strata_diag::{Diagnostic, Kind};
use strata_ir::{Context, OpId};

/// The file name diagnostics of fuzzed input carry.
pub const FILE: &str = "fuzz.mlir";

/// Fails unless each diagnostic is a located user error or "unsupported":
/// an internal error, or an error without a line and column, is a bug.
pub fn expect_user_errors(ctx: &Context, diags: &[Diagnostic]) {
    for d in diags {
        let rendered = ctx.sources.render(d);
        assert!(
            d.kind != Kind::Internal,
            "internal compiler error:\n{rendered}"
        );
        assert!(
            d.loc.is_known(),
            "diagnostic without a location:\n{rendered}"
        );
    }
}

/// Parses MLIR text and verifies it; `None` after a (checked) error.
pub fn parse_mlir(ctx: &mut Context, text: &str) -> Option<OpId> {
    let module = match strata_ir::text::parser::parse_module(ctx, FILE, text) {
        Ok(m) => m,
        Err(d) => {
            expect_user_errors(ctx, &[d]);
            return None;
        }
    };
    specialized(ctx, module)?;
    verified(ctx, module)
}

/// A shape-polymorphic module specialised as the driver does before
/// verification (`xla-refine-shapes`), every dimension variable set to 3
/// unless the module gives values itself.
fn specialized(ctx: &mut Context, module: OpId) -> Option<()> {
    use strata_dialect_xla::transforms::refine_shapes as refine;
    use strata_pass::Pass;
    if !refine::is_shape_polymorphic(ctx, module) {
        return Some(());
    }
    if ctx.attr_of(module, refine::DIMENSION_VALUES_ATTR).is_none() {
        let i64_ty = ctx.types.int_ty(64);
        let entries = refine::dimension_variables(ctx, module)
            .into_iter()
            .map(|name| {
                let a = ctx.attr(strata_ir::AttrKind::Int {
                    value: 3,
                    ty: i64_ty,
                });
                (name, a)
            })
            .collect();
        let a = ctx.attr(strata_ir::AttrKind::Dict(entries));
        ctx.set_attr(module, refine::DIMENSION_VALUES_ATTR, a);
    }
    match refine::XlaRefineShapesPass.run(ctx, module) {
        Ok(()) => Some(()),
        Err(d) => {
            expect_user_errors(ctx, &[d]);
            None
        }
    }
}

/// Imports HLO text and verifies it; `None` after a (checked) error.
pub fn parse_hlo(ctx: &mut Context, text: &str) -> Option<OpId> {
    let module = match strata_hlo_import::import_module(ctx, "fuzz.hlo", text) {
        Ok(m) => m,
        Err(d) => {
            expect_user_errors(ctx, &[d]);
            return None;
        }
    };
    verified(ctx, module)
}

/// Parses and verifies generated text that is valid StableHLO: any
/// diagnostic is a bug (of the generator or of Strata).
pub fn expect_valid(ctx: &mut Context, text: &str) -> OpId {
    let module = strata_ir::text::parser::parse_module(ctx, FILE, text)
        .unwrap_or_else(|d| panic!("valid input rejected:\n{}\n{text}", ctx.sources.render(&d)));
    if let Err(diags) = strata_ir::verify::verify(ctx, module) {
        let msgs: Vec<String> = diags.iter().map(|d| ctx.sources.render(d)).collect();
        panic!("valid input rejected:\n{}\n{text}", msgs.join(""));
    }
    module
}

fn verified(ctx: &Context, module: OpId) -> Option<OpId> {
    match strata_ir::verify::verify(ctx, module) {
        Ok(()) => Some(module),
        Err(diags) => {
            expect_user_errors(ctx, &diags);
            None
        }
    }
}

/// A verified module must print as text that parses and verifies again
/// (`strata opt` output is fed back to `strata opt` in tests and by users).
pub fn expect_round_trip(ctx: &Context, module: OpId) {
    let printed = strata_ir::text::printer::print_op(ctx, module);
    let mut again = strata_pipeline::new_context();
    let reparsed = strata_ir::text::parser::parse_module(&mut again, "printed.mlir", &printed)
        .map_err(|d| again.sources.render(&d));
    let module = match reparsed {
        Ok(m) => m,
        Err(e) => panic!("printed module does not parse:\n{e}\n--- printed:\n{printed}"),
    };
    if let Err(diags) = strata_ir::verify::verify(&again, module) {
        let msgs: Vec<String> = diags.iter().map(|d| again.sources.render(d)).collect();
        panic!(
            "printed module does not verify:\n{}\n--- printed:\n{printed}",
            msgs.join("")
        );
    }
}

/// Runs the lowering pipeline (`strata_pipeline::lower`, what `strata
/// compile` runs before code generation); true when it succeeded.
pub fn lower(ctx: &mut Context, module: OpId) -> bool {
    let expanded = strata_pipeline::entry_points(ctx, module);
    match expanded.and_then(|()| strata_pipeline::lower(ctx, module)) {
        Ok(()) => true,
        Err(diags) => {
            expect_user_errors(ctx, &diags);
            false
        }
    }
}

/// LLVM code generation of a lowered module to an object file, at -O1
/// (the optimiser is LLVM's; -O1 keeps each run short).
pub fn codegen(ctx: &Context, module: OpId) {
    let target = strata_codegen::host_target().expect("the host target resolves");
    let opts = strata_codegen::CodegenOptions {
        prefix: "fuzz".to_string(),
        opt_level: 1,
        target,
        bodies: None,
    };
    if let Err(d) = strata_codegen::compile(ctx, module, &opts, strata_codegen::EmitKind::Object) {
        expect_user_errors(ctx, &[d]);
    }
}

#[cfg(feature = "upstream")]
/// The second backend's first step: a lowered module exported as upstream
/// MLIR must pass MLIR's own verifier, or name what the export does not
/// cover (a user error); an export MLIR rejects is an internal error.
pub fn export_upstream(ctx: &Context, module: OpId) {
    if let Err(d) = strata_upstream::verified_upstream(ctx, module) {
        expect_user_errors(ctx, &[d]);
    }
}
