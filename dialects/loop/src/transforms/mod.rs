//! Passes over the `loop` dialect.

pub mod outline_parallel;
