//! Passes over the `loop` dialect.

mod access;
pub mod fuse_parallel;
pub mod outline_parallel;
pub mod private_buffers;
