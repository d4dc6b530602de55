//! A seeded batch of random programs run by Strata and by XLA:CPU (jax),
//! compared (tests/differential/difftest.py). Needs a Python with jax:
//! `$STRATA_TEST_PYTHON`, else the venv `tests/differential/setup.sh` makes
//! (/tmp/strata-test-venv), else the benchmark's (/tmp/strata-bench-venv).
//! Without one the test fails, saying how to make it; `.ci/test` creates the venv.

use std::path::Path;
use std::process::Command;

mod common;
use common::python_with_jax;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

/// Runs difftest.py on `count` programs with Strata's `backend` and
/// asserts that all agree with XLA:CPU.
fn agree_with_xla(backend: &str, count: usize, seed: u64) {
    let python = python_with_jax().expect(
        "no Python with jax: run tests/differential/setup.sh (the README's test command does)",
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential/difftest.py");
    let out = Command::new(python)
        .arg(script)
        .args(["--count", &count.to_string(), "--seed", &seed.to_string()])
        .args(["--batch", "100", "--strata", STRATA, "--backend", backend])
        .output()
        .expect("run difftest.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{backend} backend: mismatches against XLA:CPU:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("{count} programs, 0 mismatches")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("worker died"),
        "XLA aborted on a generated program:\n{stdout}"
    );
}

#[test]
fn random_programs_agree_with_xla() {
    agree_with_xla("native", 300, 11);
}

/// The second backend (upstream MLIR's lowering of the same loop level) on
/// other random programs: both code generators are held to XLA's results.
#[test]
fn random_programs_agree_with_xla_on_the_mlir_backend() {
    agree_with_xla("mlir", 200, 12);
}
