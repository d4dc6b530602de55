//! Passes that stay inside the `xla` dialect.

pub mod legalize_broadcast;
pub mod tree_reduce;
