//! The second backend (`--backend mlir`): the JAX-exported programs of
//! `tests/e2e-check/` (expected values from XLA:CPU or numpy) pass through
//! upstream MLIR's lowering as they do through the native one.

use std::path::PathBuf;
use std::process::Command;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

fn e2e_check_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e-check");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/e2e-check")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// `(passed, failed, output)` of `strata check --backend mlir FILE`.
fn check_mlir(file: &PathBuf) -> (usize, usize, String) {
    let out = Command::new(STRATA)
        .args(["check", "--backend", "mlir"])
        .arg(file)
        .output()
        .expect("run strata check");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let last = stdout.lines().last().unwrap_or("");
    let nums: Vec<usize> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    match nums[..] {
        [passed, failed] => (passed, failed, stdout),
        _ => (
            0,
            1,
            format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)),
        ),
    }
}

#[test]
fn jax_exported_check_programs_pass_on_the_mlir_backend() {
    let files = e2e_check_files();
    assert!(files.len() >= 30, "found {} files", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let (passed, failed, out) = check_mlir(f);
            // A file without checks (it runs `strata run` instead) must
            // still compile and run.
            let unchecked = passed == 0 && out.contains("contain no check.* op");
            (failed > 0 || (passed == 0 && !unchecked)).then(|| format!("{}:\n{out}", f.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
