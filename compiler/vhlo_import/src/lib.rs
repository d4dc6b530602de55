//! Reads JAX's serialized exports and StableHLO portable artifacts and
//! turns them into the StableHLO MLIR text that Strata's parser reads (the
//! text `jax.export.Exported.mlir_module()` prints, up to spelling).
//!
//! - [`portable_artifact_to_text`]: MLIR bytecode of VHLO ops (what
//!   `stablehlo.serialize_portable_artifact` and `Exported.mlir_module_serialized`
//!   hold), any StableHLO version from 0.9.0 to 1.20.0.
//! - [`jax_export_to_text`]: the flatbuffer of `Exported.serialize()`, with
//!   the function's argument and result names, shapes and platforms.
//!
//! All input is untrusted: malformed bytes give a [`ReadError`] (never a
//! panic), counts are checked against the bytes left before anything is
//! allocated, nesting is bounded, and output size is capped.

mod bytecode;
mod error;
mod flatbuffer;
mod jax_export;
mod print;
mod vhlo;

pub use error::ReadError;
pub use jax_export::{JaxExport, Shape, jax_export_to_text, looks_like_jax_export};

/// True if `bytes` starts with MLIR bytecode's magic number `ML\xefR`.
pub fn looks_like_mlir_bytecode(bytes: &[u8]) -> bool {
    bytes.starts_with(bytecode::file::MAGIC)
}

/// The StableHLO version a portable artifact was written for, from its
/// producer string (`StableHLO_v1.15.0`), if it has one.
pub fn portable_artifact_version(bytes: &[u8]) -> Option<String> {
    let file = bytecode::file::File::parse(bytes).ok()?;
    let p = file.producer.strip_prefix(b"StableHLO_v")?;
    let v = std::str::from_utf8(p).ok()?;
    v.bytes()
        .all(|b| b.is_ascii_digit() || b == b'.')
        .then(|| v.to_string())
}

/// Decodes a StableHLO portable artifact (MLIR bytecode of VHLO ops) into
/// StableHLO text: `module` and `func.func` in their pretty form, the other
/// ops in MLIR's generic form, locations kept.
pub fn portable_artifact_to_text(bytes: &[u8]) -> Result<String, ReadError> {
    let file = bytecode::file::File::parse(bytes)?;
    let top = bytecode::ir::read_ir(&file)?;
    let tables = vhlo::decode::Tables::new(&file);
    // Shared sub-attributes could otherwise print exponentially large.
    let limit = bytes.len().saturating_mul(64).saturating_add(64 << 20);
    let mut p = print::module::Printer::new(tables, limit);
    p.top(&top)
        .map_err(|e| at_end_if_unplaced(e, bytes.len()))?;
    Ok(p.out)
}

/// Printer errors that have no better place point at the end of the input.
fn at_end_if_unplaced(e: ReadError, len: usize) -> ReadError {
    if e.offset == 0 {
        ReadError::new(len, e.message)
    } else {
        e
    }
}
