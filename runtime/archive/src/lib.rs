//! The runtime's static archive, embedded: see build.rs for how it is made.

/// The bytes of `libstrata_runtime.a`, built for this machine's target.
pub static ARCHIVE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libstrata_runtime.a"));

/// A hash of [`ARCHIVE`]'s content (16 hex digits), to name extracted copies.
pub const HASH: &str = env!("STRATA_RUNTIME_ARCHIVE_HASH");
