//! Builds the runtime's static archive (`libstrata_runtime.a`) so the
//! compiler can embed it: a driver installed with `cargo install` or copied
//! elsewhere then needs no file beside it.
//!
//! Cargo cannot hand one crate's staticlib to another (artifact
//! dependencies are unstable), so this runs a nested `cargo build --release
//! -p strata-runtime` of the same workspace (same lockfile) into its own
//! target directory under OUT_DIR, sharing the jobserver, and copies the
//! archive next to a content hash.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let runtime = manifest_dir
        .parent()
        .expect("runtime/archive is inside runtime/");
    let workspace = runtime.parent().expect("runtime/ is inside the workspace");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    for watched in [
        "runtime/src",
        "runtime/Cargo.toml",
        "runtime/minifloat",
        "compiler/abi",
        "Cargo.lock",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target_dir = out_dir.join("runtime-target");
    let mut cmd = Command::new(cargo);
    cmd.arg("build")
        .arg("--release")
        .arg("-p")
        .arg("strata-runtime")
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir);
    if std::env::var_os("CARGO_NET_OFFLINE").is_some() {
        cmd.arg("--offline");
    }
    // The outer build's per-crate settings must not leak into the nested one.
    for var in [
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "RUSTC_WRAPPER",
        "CARGO_ENCODED_RUSTFLAGS",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd
        .status()
        .expect("cannot run cargo to build the runtime archive");
    assert!(
        status.success(),
        "building the runtime archive (cargo build -p strata-runtime) failed"
    );
    let built = target_dir.join("release").join("libstrata_runtime.a");
    let bytes =
        std::fs::read(&built).unwrap_or_else(|e| panic!("cannot read {}: {e}", built.display()));
    let dest = out_dir.join("libstrata_runtime.a");
    std::fs::write(&dest, &bytes)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));
    println!(
        "cargo:rustc-env=STRATA_RUNTIME_ARCHIVE_HASH={:016x}",
        fnv1a(&bytes)
    );
}

/// FNV-1a, 64 bits: names the extracted archive by its content.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
