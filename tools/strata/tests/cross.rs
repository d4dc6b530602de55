//! Cross-compiled libraries under emulation: the MLP example (`examples/mlp`,
//! exported from JAX) compiled with `--target aarch64-linux-gnu` and
//! `--target riscv64-linux-gnu` to a `.so` and a `.a`, its C program built
//! with Debian's cross gcc and run under `qemu-user`, against XLA:CPU's
//! results; a library for SVE refuses an emulated CPU without it; the
//! interpreter suite and `tests/e2e-check` pass under `strata check --target T
//! --run-with "qemu-..."`.
//!
//! Needs what `.ci/setup` installs: the cross gcc and C libraries, qemu-user,
//! and the Rust targets the runtime is cross-built for. Without them the
//! tests fail.

use std::path::Path;
use std::process::Command;

mod common;
use common::*;

const TARGETS: &[(&str, &str)] = &[("aarch64", "qemu-aarch64"), ("riscv64", "qemu-riscv64")];

/// Compiles the MLP for `arch` into `dir/libmodel.EXT` and builds its C
/// program against it; returns the program.
fn cross_build(dir: &Path, arch: &str, ext: &str, options: &[&str]) -> std::path::PathBuf {
    let mlp = repo().join("examples/mlp");
    let target = format!("{arch}-linux-gnu");
    run_ok(
        Command::new(env!("CARGO_BIN_EXE_strata"))
            .arg("compile")
            .arg(mlp.join("model.mlir"))
            .arg("-o")
            .arg(dir.join(format!("libmodel.{ext}")))
            .arg("--header")
            .arg(dir.join("model.h"))
            .args(["--target", &target])
            .args(options),
    );
    let header = std::fs::read_to_string(dir.join("model.h")).unwrap();
    assert!(header.contains(&format!("Target: {target}")), "{header}");
    let exe = dir.join(format!("mlp-{ext}"));
    let mut gcc = Command::new(format!("{target}-gcc"));
    gcc.args(["-O2", "-Wall", "-o"])
        .arg(&exe)
        .arg(mlp.join("main.c"))
        .arg(format!("-I{}", dir.display()))
        .arg(format!("-I{}", mlp.display()));
    if ext == "so" {
        gcc.arg(format!("-L{}", dir.display()))
            .arg("-lmodel")
            .arg(format!("-Wl,-rpath,{}", dir.display()))
            .arg("-lm");
    } else {
        gcc.arg(dir.join("libmodel.a"))
            .args(["-lm", "-lpthread", "-ldl"]);
    }
    run_ok(&mut gcc);
    exe
}

fn emulate(qemu: &str, arch: &str, cpu: Option<&str>, exe: &Path) -> std::process::Output {
    let mut cmd = Command::new(qemu);
    cmd.args(["-L", &format!("/usr/{arch}-linux-gnu")]);
    if let Some(cpu) = cpu {
        cmd.args(["-cpu", cpu]);
    }
    cmd.arg(exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {qemu} (Debian's qemu-user): {e}"))
}

#[test]
fn mlp_cross_compiled_runs_under_emulation_and_matches_xla() {
    for &(arch, qemu) in TARGETS {
        for ext in ["so", "a"] {
            let tmp = tempfile::tempdir().unwrap();
            let exe = cross_build(tmp.path(), arch, ext, &[]);
            let out = emulate(qemu, arch, None, &exe);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && stdout.contains("OK: all 16 outputs match XLA"),
                "{arch} .{ext}: {}",
                show(&out)
            );
        }
    }
}

#[test]
fn library_for_sve_refuses_a_cpu_without_it() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = cross_build(tmp.path(), "aarch64", "so", &["--target-features", "+sve"]);
    let without = emulate("qemu-aarch64", "aarch64", Some("cortex-a72"), &exe);
    let stderr = String::from_utf8_lossy(&without.stderr);
    assert!(
        !without.status.success()
            && stderr.contains("compiled for CPU features this machine lacks (sve)"),
        "{}",
        show(&without)
    );
    let with = emulate("qemu-aarch64", "aarch64", Some("max"), &exe);
    assert!(
        with.status.success()
            && String::from_utf8_lossy(&with.stdout).contains("OK: all 16 outputs match XLA"),
        "{}",
        show(&with)
    );
}

#[test]
fn a_target_without_a_runtime_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_strata"))
        .arg("compile")
        .arg(repo().join("examples/mlp/model.mlir"))
        .arg("-o")
        .arg(tmp.path().join("libm.so"))
        .args(["--target", "aarch64-apple-darwin"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no runtime for aarch64-apple-darwin")
            && stderr.contains("aarch64-linux-gnu, riscv64-linux-gnu"),
        "{stderr}"
    );
}

/// `strata check --target T --run-with "qemu-..."`: StableHLO's interpreter
/// suite (every file whose ops Strata implements: all but the
/// `interpreter.print`/`probe` ones) and the JAX-exported programs of
/// `tests/e2e-check/` (expected values from XLA:CPU) compiled for each
/// emulated target, every piece passing.
#[test]
fn conformance_suites_pass_on_the_emulated_targets() {
    let suite = repo().join("../shared/conformance/stablehlo-interpret");
    let mut interpreter: Vec<std::path::PathBuf> = std::fs::read_dir(&suite)
        .unwrap_or_else(|e| panic!("{}: {e}", suite.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .filter(|p| {
            !["printing.mlir", "probe.mlir"]
                .iter()
                .any(|n| p.ends_with(n))
        })
        .collect();
    interpreter.sort();
    let mut e2e: Vec<std::path::PathBuf> = std::fs::read_dir(repo().join("tests/e2e-check"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    e2e.sort();
    for &(arch, qemu) in TARGETS {
        for (files, least) in [(&interpreter, 500), (&e2e, 600)] {
            let out = Command::new(env!("CARGO_BIN_EXE_strata"))
                .arg("check")
                .args(["--target", &format!("{arch}-linux-gnu")])
                .args(["--run-with", &format!("{qemu} -L /usr/{arch}-linux-gnu")])
                .args(files.iter())
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let last = stdout.lines().last().unwrap_or("");
            let passed: usize = last
                .strip_suffix(" passed, 0 failed")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{arch}: {}", show(&out)));
            assert!(
                out.status.success() && passed >= least,
                "{arch}: {}",
                show(&out)
            );
        }
    }
}

#[test]
fn check_for_another_target_needs_a_runner() {
    let out = Command::new(env!("CARGO_BIN_EXE_strata"))
        .arg("check")
        .args(["--target", "aarch64-linux-gnu"])
        .arg(repo().join("tests/e2e-check/fft.mlir"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--target aarch64-linux-gnu needs --run-with"),
        "{stderr}"
    );
}

/// The Rust example (`examples/rust_mlp`, `strata-build` in its build
/// script) cross-built with `cargo --target` for each target, linked by the
/// cross gcc and run under qemu through cargo's runner: it matches XLA.
#[test]
fn rust_crate_with_strata_build_cross_compiles() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    for (arch, rust_target, qemu) in [
        ("aarch64", "aarch64-unknown-linux-gnu", "qemu-aarch64"),
        ("riscv64", "riscv64gc-unknown-linux-gnu", "qemu-riscv64"),
    ] {
        let env_name = rust_target.to_uppercase().replace('-', "_");
        let stdout = run_ok(
            Command::new(&cargo)
                .args([
                    "run",
                    "--release",
                    "--quiet",
                    "--offline",
                    "--target",
                    rust_target,
                ])
                .current_dir(repo().join("examples/rust_mlp"))
                .env("STRATA", env!("CARGO_BIN_EXE_strata"))
                .env(
                    format!("CARGO_TARGET_{env_name}_LINKER"),
                    format!("{arch}-linux-gnu-gcc"),
                )
                .env(
                    format!("CARGO_TARGET_{env_name}_RUNNER"),
                    format!("{qemu} -L /usr/{arch}-linux-gnu"),
                )
                .env("CARGO_TARGET_DIR", repo().join("target/examples-rust_mlp")),
        );
        assert!(
            stdout.contains("OK: all 16 outputs match XLA"),
            "{arch}: {stdout}"
        );
    }
}
