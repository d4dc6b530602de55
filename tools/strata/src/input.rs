//! Reading input files and reporting diagnostics.

use std::path::Path;

use strata_diag::{Diagnostic, Location};
use strata_ir::{Context, OpId};

/// An input file as text, with what a serialized JAX export says beside it.
pub struct Source {
    /// StableHLO (or HLO, or xla dialect) text; decoded from bytecode or a
    /// serialized export when the file holds one.
    pub text: String,
    /// The platforms a serialized JAX export was made for (empty otherwise).
    pub platforms: Vec<String>,
    /// The paths of arguments a serialized export's `@main` does not take
    /// (JAX drops unused ones): noted in the header and the signature.
    pub dropped: Vec<String>,
}

/// Reads a source file. The format is told by content: a serialized JAX
/// export (`Exported.serialize()`), a StableHLO portable artifact (MLIR
/// bytecode, `.mlirbc`), or text (StableHLO, HLO, xla dialect); non-UTF-8
/// text is an error at its first bad byte, a malformed binary one at its
/// byte offset.
pub fn read_source(path: &Path) -> Result<Source, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{}: error: cannot read file: {e}", path.display()))?;
    let binary_error = |e: strata_vhlo_import::ReadError, what: &str| {
        format!("{}: error: {what}: {e}", path.display())
    };
    if strata_vhlo_import::looks_like_mlir_bytecode(&bytes) {
        let text = strata_vhlo_import::portable_artifact_to_text(&bytes)
            .map_err(|e| binary_error(e, "cannot read the StableHLO portable artifact"))?;
        return Ok(Source {
            text,
            platforms: Vec::new(),
            dropped: Vec::new(),
        });
    }
    if strata_vhlo_import::looks_like_jax_export(&bytes) {
        let export = strata_vhlo_import::jax_export_to_text(&bytes)
            .map_err(|e| binary_error(e, "cannot read the serialized JAX export"))?;
        let kept = &export.module_kept_var_idx;
        let dropped = if kept.is_empty() {
            Vec::new()
        } else {
            export
                .in_names
                .iter()
                .enumerate()
                .filter(|(i, _)| !kept.iter().any(|&k| usize::from(k) == *i))
                .map(|(_, n)| n.clone())
                .collect()
        };
        return Ok(Source {
            text: export.module_text,
            platforms: export.platforms,
            dropped,
        });
    }
    // Text never holds NUL; a binary file that is not a readable export or
    // artifact says why it is not, rather than echoing its bytes.
    if bytes.contains(&0) {
        let why = match strata_vhlo_import::jax_export_to_text(&bytes) {
            Err(e) => e.to_string(),
            Ok(_) => "unrecognised layout".to_string(),
        };
        return Err(format!(
            "{}: error: not text, nor a readable serialized JAX export ({why}) or MLIR bytecode",
            path.display()
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let prefix = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = prefix.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!(
            "{}:{line}:{col}: error: input is not valid UTF-8 text (nor a serialized JAX export or \
             MLIR bytecode)",
            path.display()
        )
    })?;
    Ok(Source {
        text,
        platforms: Vec::new(),
        dropped: Vec::new(),
    })
}

/// Reads a source file, printing the error on failure.
pub fn read_or_report(path: &Path) -> Option<Source> {
    read_source(path).map_err(|e| errln!("{e}")).ok()
}

pub fn report(ctx: &Context, diags: &[Diagnostic]) {
    for d in diags {
        err!("{}", ctx.sources.render(d));
    }
}

/// Parses and verifies a whole file (or one isolated piece of it): XLA's
/// HLO text when it starts with `HloModule`, else MLIR text (StableHLO and
/// Strata's dialects), whatever the file's extension.
pub fn parse_and_verify(
    ctx: &mut Context,
    name: &str,
    text: &str,
) -> Result<OpId, Vec<Diagnostic>> {
    parse_specialize_and_verify(ctx, name, text, &[])
}

/// [`parse_and_verify`], specialising a shape-polymorphic module for the
/// dimension values `dims` (`--dim b=64`) before it is verified (the
/// verifiers want static shapes): `xla-refine-shapes`.
pub fn parse_specialize_and_verify(
    ctx: &mut Context,
    name: &str,
    text: &str,
    dims: &[(String, i64)],
) -> Result<OpId, Vec<Diagnostic>> {
    use strata_dialect_xla::transforms::refine_shapes as refine;
    use strata_pass::Pass;
    let module = if strata_hlo_import::looks_like_hlo(text) {
        strata_hlo_import::import_module(ctx, name, text)
    } else {
        strata_ir::text::parser::parse_module(ctx, name, text)
    }
    .map_err(|d| vec![d])?;
    if !dims.is_empty() {
        let entries = dims
            .iter()
            .map(|(k, v)| {
                let i64_ty = ctx.types.int_ty(64);
                let a = ctx.attr(strata_ir::AttrKind::Int {
                    value: i128::from(*v),
                    ty: i64_ty,
                });
                (k.clone(), a)
            })
            .collect();
        let a = ctx.attr(strata_ir::AttrKind::Dict(entries));
        ctx.set_attr(module, refine::DIMENSION_VALUES_ATTR, a);
    }
    if refine::is_shape_polymorphic(ctx, module) {
        refine::XlaRefineShapesPass
            .run(ctx, module)
            .map_err(|d| vec![d])?;
    }
    strata_ir::verify::verify(ctx, module)?;
    Ok(module)
}

pub fn unknown_loc_error(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Location::unknown(), msg)
}
