//! Index-heavy ops under AddressSanitizer, UndefinedBehaviorSanitizer and
//! LeakSanitizer, called with adversarial inputs: out-of-range, negative and
//! INT_MIN / INT_MAX indices, NaN sort keys, empty dimensions.
//!
//! Strata's LLVM IR (`strata compile -o x.ll`) is instrumented by clang-22:
//! its functions get the `sanitize_address` attribute (ASan only instruments
//! functions that carry it), then `clang-22 -fsanitize=address` compiles the
//! IR, so every load and store of the generated code is checked against the
//! redzones of the C harness's exactly-sized `malloc` buffers. The harness
//! (`tests/e2e/sanitizers.c`) checks the results against XLA's semantics
//! (clamped starts, skipped out-of-bounds scatter updates, total order),
//! values written by hand there. Skipped, saying so, when clang-22 is absent.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const STRATA: &str = env!("CARGO_BIN_EXE_strata");
const CLANG: &str = "/usr/bin/clang-22";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn show(out: &Output) -> String {
    format!(
        "status: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed\n{}", show(&out));
    out
}

/// Marks every attribute group `sanitize_address`, so ASan instruments the
/// functions that use one (all that Strata defines, but for the trivial
/// runtime accessors without attributes).
fn with_sanitize_address(ir: &str) -> String {
    ir.lines()
        .map(|line| match line.split_once(" = { ") {
            Some((group, rest)) if line.starts_with("attributes #") => {
                format!("{group} = {{ sanitize_address {rest}")
            }
            _ => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The runtime library the driver links into artifacts, next to it.
fn runtime_archive() -> PathBuf {
    let lib = Path::new(STRATA)
        .parent()
        .unwrap()
        .join("libstrata_runtime.a");
    assert!(
        lib.is_file(),
        "{} is missing (cargo build --release)",
        lib.display()
    );
    lib
}

#[test]
fn index_ops_with_adversarial_inputs_under_asan_and_ubsan() {
    assert!(
        Path::new(CLANG).exists(),
        "{CLANG} is not installed (Debian package clang-22, installed by .ci/setup)"
    );
    let e2e = repo().join("tests/e2e");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let ll = dir.join("adv.ll");
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(e2e.join("sanitizers.mlir"))
            .arg("-o")
            .arg(&ll)
            .arg("--header")
            .arg(dir.join("adv.h"))
            .args(["--name", "adv"]),
    );
    let ir = std::fs::read_to_string(&ll).unwrap();
    assert!(
        ir.contains("attributes #"),
        "no attribute groups to mark:\n{ir}"
    );
    let asan_ll = dir.join("adv_asan.ll");
    std::fs::write(&asan_ll, with_sanitize_address(&ir)).unwrap();
    let obj = dir.join("adv.o");
    run_ok(
        Command::new(CLANG)
            .args(["-fsanitize=address", "-Wno-override-module", "-c"])
            .arg(&asan_ll)
            .arg("-o")
            .arg(&obj),
    );
    let exe = dir.join("adv");
    run_ok(
        Command::new(CLANG)
            .args([
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                "-g",
                "-O1",
            ])
            .args(["-Wall", "-Werror"])
            .arg(format!("-I{}", dir.display()))
            .arg(e2e.join("sanitizers.c"))
            .arg(&obj)
            .arg(runtime_archive())
            .args(["-lm", "-lpthread", "-ldl", "-o"])
            .arg(&exe),
    );
    let out = Command::new(&exe)
        .env("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1")
        .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("Sanitizer") && !stderr.contains("runtime error"),
        "{}",
        show(&out)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("all adversarial cases ok"),
        "{}",
        show(&out)
    );
}
