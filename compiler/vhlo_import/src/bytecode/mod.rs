//! MLIR bytecode: the container format of StableHLO portable artifacts.

pub mod cursor;
pub mod file;
pub mod ir;
