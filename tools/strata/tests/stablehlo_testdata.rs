//! StableHLO's JAX-generated test suite (`stablehlo/testdata/` of a checkout
//! of openxla/stablehlo: 2,325 programs, each checking an op's result
//! against XLA:CPU's with `check.expect_close` / `expect_eq` /
//! `expect_almost_eq`) under `strata check`, every program.
//!
//! The suite is not in this repository and the sweep takes about 15 minutes
//! on two cores, so the test is ignored by default:
//!
//! ```text
//! STRATA_STABLEHLO_TESTDATA=/path/to/stablehlo/stablehlo/testdata \
//!     cargo test --release -p strata --test stablehlo_testdata -- --ignored --nocapture
//! ```
//!
//! `STRATA_TESTDATA_JOBS` sets the number of programs run at once (default
//! 2). The programs that once failed are copied into
//! `tests/stablehlo-testdata/` and run by the default suite (`tests/lit.rs`).

use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

/// Longest a program may take (the 14x15x16x17 FFTs take a few seconds).
const TIMEOUT: Duration = Duration::from_secs(300);

/// `Ok(())` when `strata check FILE` passes every piece, else the output.
fn check(file: &PathBuf) -> Result<(), String> {
    let mut child = Command::new(STRATA)
        .arg("check")
        .arg(file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run strata: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {TIMEOUT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("wait failed: {e}")),
        }
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("no output: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() {
        return Ok(());
    }
    let mut text = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    text.truncate(2000);
    Err(text)
}

#[test]
#[ignore = "needs StableHLO's testdata (STRATA_STABLEHLO_TESTDATA) and ~15 minutes"]
fn stablehlo_testdata_programs_pass() {
    let Some(dir) = std::env::var_os("STRATA_STABLEHLO_TESTDATA").map(PathBuf::from) else {
        panic!("set STRATA_STABLEHLO_TESTDATA to a checkout's stablehlo/testdata directory");
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .mlir files in {}", dir.display());
    let jobs: usize = std::env::var("STRATA_TESTDATA_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
        .max(1);
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(file) = files.get(i) else { break };
                    if let Err(out) = check(file) {
                        eprintln!("FAIL {}\n{out}", file.display());
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(file.display().to_string());
                    }
                }
            });
        }
    });
    let failed = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    println!(
        "{} passed, {} failed",
        files.len() - failed.len(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "failing programs:\n{}",
        failed.join("\n")
    );
}
