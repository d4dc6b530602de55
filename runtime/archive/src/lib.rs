//! The runtime's static archives, embedded: see build.rs for how they are
//! made.

/// The bytes of `libstrata_runtime.a`, built for this machine's target.
pub static ARCHIVE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libstrata_runtime.a"));

/// A hash of [`ARCHIVE`]'s content (16 hex digits), to name extracted copies.
pub const HASH: &str = env!("STRATA_RUNTIME_ARCHIVE_HASH");

/// The runtimes cross-built for other targets: (Rust target triple, the
/// archive's bytes, their hash), for each target whose Rust standard
/// library was installed when the compiler was built.
pub static CROSS: &[(&str, &[u8], &str)] = include!(concat!(env!("OUT_DIR"), "/cross.rs"));
