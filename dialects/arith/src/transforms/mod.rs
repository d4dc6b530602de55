//! Passes over the `arith` dialect.

pub mod expand_narrow_floats;
