//! Reading input files and reporting diagnostics.

use std::path::Path;

use strata_diag::{Diagnostic, Location};
use strata_ir::{Context, OpId};

/// Reads a source file; non-UTF-8 input is an error at 1:1.
pub fn read_source(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{}: error: cannot read file: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        let prefix = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = prefix.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!(
            "{}:{line}:{col}: error: input is not valid UTF-8 text",
            path.display()
        )
    })
}

/// Reads a source file, printing the error on failure.
pub fn read_or_report(path: &Path) -> Option<String> {
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
    let module = if strata_hlo_import::looks_like_hlo(text) {
        strata_hlo_import::import_module(ctx, name, text)
    } else {
        strata_ir::text::parser::parse_module(ctx, name, text)
    }
    .map_err(|d| vec![d])?;
    strata_ir::verify::verify(ctx, module)?;
    Ok(module)
}

pub fn unknown_loc_error(msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(Location::unknown(), msg)
}
