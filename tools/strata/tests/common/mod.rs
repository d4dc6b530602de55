//! Helpers shared by the integration tests that drive `strata` and link its
//! artifacts into C programs (each test file is its own crate: not every
//! one uses every helper).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const STRATA: &str = env!("CARGO_BIN_EXE_strata");

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

pub fn show(out: &Output) -> String {
    format!(
        "status: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs a command and asserts it succeeds; returns its stdout.
pub fn run_ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed\n{}", show(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `strata compile INPUT -o DIR/OUT --header DIR/HEADER`.
pub fn compile(input: &Path, dir: &Path, out: &str, header: &str) -> PathBuf {
    compile_with(input, dir, out, header, &[])
}

/// [`compile`] with extra driver options.
pub fn compile_with(input: &Path, dir: &Path, out: &str, header: &str, extra: &[&str]) -> PathBuf {
    let lib = dir.join(out);
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .args(extra)
            .arg(input)
            .arg("-o")
            .arg(&lib)
            .arg("--header")
            .arg(dir.join(header)),
    );
    assert!(lib.is_file(), "{} was not written", lib.display());
    lib
}

pub fn cc() -> Command {
    Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
}

/// A Python with jax and numpy: `$STRATA_TEST_PYTHON`, else the venv
/// `tests/differential/setup.sh` makes (`.ci/test` runs it), else the
/// benchmark's.
#[allow(dead_code)]
pub fn python_with_jax() -> Option<PathBuf> {
    let candidates = std::env::var_os("STRATA_TEST_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain(
            [
                "/tmp/strata-test-venv/bin/python",
                "/tmp/strata-bench-venv/bin/python",
            ]
            .map(PathBuf::from),
        );
    candidates.into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import jax, numpy"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}
