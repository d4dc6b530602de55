//! Passes over the `loop` dialect.

mod access;
pub mod fuse_parallel;
pub mod outline_parallel;
pub mod plan_arena;
pub mod private_buffers;
pub mod profile;
pub mod tile;
pub mod update_in_place;
