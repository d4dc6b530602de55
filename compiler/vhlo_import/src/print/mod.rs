//! StableHLO text output.

pub mod module;
pub mod text;
