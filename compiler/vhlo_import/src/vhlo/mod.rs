//! StableHLO's VHLO dialect: its attribute and type encodings, its ops,
//! and their conversion to StableHLO.

mod builtin_codes;
pub mod convert;
pub mod decode;
pub mod model;
pub mod ops;
mod vhlo_codes;
