//! Passes that stay inside the `mem` dialect.

pub mod reuse_buffers;
