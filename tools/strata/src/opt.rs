//! `strata opt`: parse, verify, run passes, print.

use std::path::Path;

use strata_ir::text::{isolate_piece, split_pieces};

use crate::input::{parse_and_verify, read_or_report, report, unknown_loc_error};

/// Prints the loop level as upstream MLIR (`func`/`scf`/`memref`/`arith`/
/// `math`), verified by MLIR, instead of Strata's IR: after the given
/// passes (and `arith-expand-narrow-floats`, which the export needs), or
/// after the whole lowering when no pass is given.
const EXPORT_UPSTREAM: &str = "--export-upstream";

/// `strata opt --list-passes`: every pass flag with its summary.
pub fn list_passes() -> bool {
    for p in strata_pipeline::all_passes()
        .into_iter()
        .chain(strata_pipeline::optional_passes())
    {
        outln!("--{:<24} {}", p.flag(), p.summary());
    }
    outln!(
        "{EXPORT_UPSTREAM:<26} print the result as upstream MLIR (after the whole lowering if no pass is given)"
    );
    true
}

pub fn run(input: &Path, split: bool, flags: &[String]) -> bool {
    if flags.iter().any(|f| f == "--list-passes") {
        return list_passes();
    }
    let Some(text) = read_or_report(input).map(|source| source.text) else {
        return false;
    };
    let name = input.display().to_string();
    let pieces: Vec<String> = if split {
        split_pieces(&text)
            .iter()
            .map(|p| isolate_piece(&text, p))
            .collect()
    } else {
        vec![text.clone()]
    };
    let mut ok = true;
    let mut outputs = Vec::new();
    for piece in pieces {
        let mut ctx = strata_pipeline::new_context();
        match run_piece(&mut ctx, &name, &piece, flags) {
            Ok(s) => outputs.push(s),
            Err(diags) => {
                report(&ctx, &diags);
                ok = false;
            }
        }
    }
    out!("{}", outputs.join("// -----\n"));
    ok
}

/// `--print-ir-after-all` and `--print-ir-after=FLAG` (repeatable), as MLIR
/// tools spell them.
pub fn print_after(flags: &[&String]) -> Result<strata_pass::PrintAfter, String> {
    let mut passes = Vec::new();
    for f in flags {
        if f.as_str() == "--print-ir-after-all" {
            return Ok(strata_pass::PrintAfter::All);
        }
        let Some(flag) = f.strip_prefix("--print-ir-after=") else {
            return Err(format!(
                "'{f}': use --print-ir-after-all or --print-ir-after=PASS"
            ));
        };
        let flag = flag.trim_start_matches('-');
        if strata_pipeline::pass_by_flag(flag).is_none() {
            return Err(format!(
                "unknown pass '{flag}' in '{f}' (see `strata opt --list-passes`)"
            ));
        }
        passes.push(flag.to_string());
    }
    Ok(if passes.is_empty() {
        strata_pass::PrintAfter::Nothing
    } else {
        strata_pass::PrintAfter::Passes(passes)
    })
}

fn run_piece(
    ctx: &mut strata_ir::Context,
    name: &str,
    text: &str,
    flags: &[String],
) -> Result<String, Vec<strata_diag::Diagnostic>> {
    let module = parse_and_verify(ctx, name, text)?;
    let mut pm = strata_pass::PassManager::new();
    let export_upstream = flags.iter().any(|f| f == EXPORT_UPSTREAM);
    let (print_flags, pass_flags): (Vec<&String>, Vec<&String>) = flags
        .iter()
        .filter(|f| *f != EXPORT_UPSTREAM)
        .partition(|f| f.starts_with("--print-ir-after"));
    if export_upstream && pass_flags.is_empty() {
        // The whole lowering, then the export.
        strata_pipeline::lower(ctx, module)?;
        return strata_upstream::verified_upstream(ctx, module).map_err(|d| vec![d]);
    }
    pm.print_after = print_after(&print_flags).map_err(|m| vec![unknown_loc_error(m)])?;
    for f in pass_flags {
        let flag = f.trim_start_matches('-');
        let pass = strata_pipeline::pass_by_flag(flag).ok_or_else(|| {
            vec![unknown_loc_error(format!(
                "unknown pass '{f}' (see `strata opt --list-passes`)"
            ))]
        })?;
        pm.add(pass);
    }
    if export_upstream {
        // The export reads 16-bit float arithmetic expanded, as after the
        // whole lowering (the pass finds nothing when it already ran).
        pm.add(Box::new(
            strata_dialect_arith::transforms::expand_narrow_floats::ArithExpandNarrowFloatsPass,
        ));
    }
    pm.run(ctx, module)?;
    if export_upstream {
        return strata_upstream::verified_upstream(ctx, module).map_err(|d| vec![d]);
    }
    Ok(strata_ir::text::printer::print_op(ctx, module))
}
