//! Builds the runtime's static archive (`libstrata_runtime.a`) so the
//! compiler can embed it: a driver installed with `cargo install` or copied
//! elsewhere then needs no file beside it. Beside the host's, it builds the
//! runtime for each cross target of [`CROSS_TARGETS`] whose Rust standard
//! library is installed (`rustup target add ...`), so `strata compile
//! --target aarch64-linux-gnu -o lib.so` needs no Rust toolchain on the
//! user's machine.
//!
//! Cargo cannot hand one crate's staticlib to another (artifact
//! dependencies are unstable), so this runs a nested `cargo build --release
//! -p strata-runtime` of the same workspace (same lockfile) into its own
//! target directory under OUT_DIR, sharing the jobserver, and copies each
//! archive next to a content hash.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Rust targets a runtime is cross-built for when their standard
/// library is installed.
const CROSS_TARGETS: &[&str] = &["aarch64-unknown-linux-gnu", "riscv64gc-unknown-linux-gnu"];

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
    let host = build(workspace, &out_dir, None).expect("the host runtime is built");
    let dest = out_dir.join("libstrata_runtime.a");
    std::fs::write(&dest, &host).unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));
    println!(
        "cargo:rustc-env=STRATA_RUNTIME_ARCHIVE_HASH={:016x}",
        fnv1a(&host)
    );
    // `CROSS` in lib.rs: (Rust target, archive, hash) per target built.
    let mut cross = String::from("&[\n");
    for &target in CROSS_TARGETS {
        if !has_standard_library(target) {
            println!(
                "cargo:warning=no runtime for {target}: its Rust standard library is not \
                 installed (rustup target add {target})"
            );
            continue;
        }
        let Some(bytes) = build(workspace, &out_dir, Some(target)) else {
            panic!("building the runtime for {target} failed");
        };
        let file = out_dir.join(format!("libstrata_runtime-{target}.a"));
        std::fs::write(&file, &bytes)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
        cross.push_str(&format!(
            "    ({target:?}, include_bytes!({:?}), \"{:016x}\"),\n",
            file.display().to_string(),
            fnv1a(&bytes)
        ));
    }
    cross.push_str("]\n");
    std::fs::write(out_dir.join("cross.rs"), cross).expect("cannot write cross.rs");
}

/// Whether rustup installed `target`'s standard library for this toolchain.
fn has_standard_library(target: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    Command::new(rustc)
        .args(["--print", "target-libdir", "--target", target])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .is_some_and(|mut entries| {
            entries.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libstd-")))
        })
}

/// The runtime's archive built for `target` (None: the host).
fn build(workspace: &Path, out_dir: &Path, target: Option<&str>) -> Option<Vec<u8>> {
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
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
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
    if !status.success() {
        return None;
    }
    let built = match target {
        Some(t) => target_dir.join(t).join("release"),
        None => target_dir.join("release"),
    }
    .join("libstrata_runtime.a");
    Some(std::fs::read(&built).unwrap_or_else(|e| panic!("cannot read {}: {e}", built.display())))
}

/// FNV-1a, 64 bits: names the extracted archive by its content.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
