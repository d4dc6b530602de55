//! Importer for XLA's HLO text format (`HloModule ...`) into the `xla`
//! dialect: the same `builtin.module` of `func.func`s that parsing the
//! equivalent StableHLO gives, so the rest of the pipeline is unchanged.
//!
//! - `lexer`, `parser`, `shapes`: the syntax (module, computations,
//!   instructions, shapes), with `line:col` on everything.
//! - `attrs`: readers for attribute values (`{1,0}`, `window={...}`, ...).
//! - `import`: computations to functions and regions, tuples flattened.
//! - `elementwise`, `shape_ops`, `reduce`, `control`, `collective`, `misc`:
//!   one builder per opcode, by family.

mod attrs;
mod collective;
mod control;
mod elementwise;
mod entry;
mod import;
mod lexer;
mod misc;
mod opcode;
mod parser;
mod reduce;
mod shape_ops;
mod shapes;

#[cfg(test)]
mod tests;

use strata_diag::Result;
use strata_ir::{Context, OpId};

/// Whether `text` is HLO text: its first token, after blank lines and
/// `//` or `/* */` comments, is `HloModule`.
pub fn looks_like_hlo(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            break;
        }
    }
    rest.strip_prefix("HloModule")
        .is_some_and(|r| r.starts_with(|c: char| c.is_whitespace()))
}

/// Imports an HLO module: the ENTRY computation becomes the public
/// `@main`. The text is registered with the context's source map, so
/// diagnostics (the importer's and later the verifier's) quote it.
pub fn import_module(ctx: &mut Context, file_name: &str, text: &str) -> Result<OpId> {
    let file = ctx.sources.add(file_name, text);
    let lines = lexer::LineIndex::new(text, file);
    let mut cursor = lexer::Cursor::new(text, &lines);
    let module = parser::parse_module(&mut cursor)?;
    let importer = import::Importer::new(ctx, cursor, &module)?;
    importer.run()
}
