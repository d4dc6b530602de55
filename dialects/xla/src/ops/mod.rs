//! Verifiers (with shape inference) by op family.

pub mod collective;
pub mod control;
pub mod conv;
pub mod decomposition;
pub mod dot;
pub mod dynamic;
pub mod elementwise;
pub mod gather;
pub mod linalg;
pub mod misc;
pub mod norm;
pub mod quant;
pub mod ragged;
pub mod reduce;
pub mod scan;
pub mod shape;
