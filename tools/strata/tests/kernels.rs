//! The runtime's kernels as the kernel selection calls them, checked end to
//! end from C against the definitions of the ops (`tests/e2e/`).

mod common;
use common::*;

use std::process::Command;

/// `tests/e2e/transposes.mlir`: large transposes become `kernel.transpose`
/// (the IR says so) and every element of each lands where the definition
/// puts it, on one thread and on the pool.
#[test]
fn large_transposes_match_the_definition() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let e2e = repo().join("tests/e2e");
    let input = e2e.join("transposes.mlir");
    let ir = run_ok(
        Command::new(STRATA)
            .arg("opt")
            .arg(&input)
            .arg("--convert-xla-to-kernel"),
    );
    assert_eq!(ir.matches("\"kernel.transpose\"").count(), 4, "{ir}");
    compile(&input, dir, "libtransposes.so", "transposes.h");
    let exe = dir.join("transposes");
    run_ok(
        cc().args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(e2e.join("transposes.c"))
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-L{}", dir.display()))
            .arg("-ltransposes")
            .arg(format!("-Wl,-rpath,{}", dir.display())),
    );
    for threads in ["1", "2"] {
        let stdout = run_ok(Command::new(&exe).env("STRATA_NUM_THREADS", threads));
        assert!(stdout.contains("transposes: all checks passed"), "{stdout}");
    }
}
