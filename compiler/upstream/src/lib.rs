//! strata-upstream: the bridge to upstream MLIR (through `melior`).
//!
//! - [`export_module`] writes a loop-level module (`loop`, `mem`, `arith`,
//!   `func`) as upstream `func` / `scf` / `memref` / `arith` / `math` text,
//!   with the native backend's semantics (see `export/`);
//! - [`verified_upstream`] parses that text with MLIR and runs MLIR's own
//!   verifier on it (`strata opt --export-upstream`);
//! - [`lower_bodies`] lowers it with MLIR's conversion passes to the LLVM
//!   dialect and translates it to an LLVM module defining the functions'
//!   bodies (`P.f`) and constants, which `strata-codegen` links under its C
//!   wrappers (`--backend mlir`).
//!
//! The second backend exists to check the first: the same loop-level
//! program, lowered by an independent path, must compute the same results.

mod export;
mod mlir;

pub use export::{ExportOptions, export_module};
pub use mlir::{PIPELINE, lower_bodies, verified_upstream};
