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

/// Builds the C++20 program `source` against the libraries `libs` in `dir`
/// (its headers there and in `tests/e2e`), runs it and returns its output.
#[allow(dead_code)]
pub fn build_and_run_cpp(dir: &Path, source: &str, libs: &[&str]) -> String {
    let e2e = repo().join("tests/e2e");
    let exe = dir.join(source.replace('.', "_"));
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    run_ok(
        Command::new(cxx)
            .args(["-std=c++20", "-O2", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(e2e.join(source))
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-I{}", e2e.display()))
            .arg(format!("-L{}", dir.display()))
            .args(libs.iter().map(|l| format!("-l{l}")))
            .arg(format!("-Wl,-rpath,{}", dir.display())),
    );
    run_ok(&mut Command::new(&exe))
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

pub fn mlp_dir() -> PathBuf {
    repo().join("examples/mlp")
}

/// Compiles `examples/mlp/MODEL` to a shared library in `dir`, links
/// `main.c` against it and asserts the program matches XLA.
pub fn mlp_c_program_matches_xla(model: &str, dir: &Path) {
    mlp_c_program_built_with_matches_xla(model, dir, &[]);
}

/// [`mlp_c_program_matches_xla`] with extra `strata compile` options.
pub fn mlp_c_program_built_with_matches_xla(model: &str, dir: &Path, options: &[&str]) {
    compile_with(
        &mlp_dir().join(model),
        dir,
        "libmodel.so",
        "model.h",
        options,
    );
    let exe = dir.join("mlp");
    run_ok(
        cc().args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(mlp_dir().join("main.c"))
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-L{}", dir.display()))
            .arg("-lmodel")
            .arg(format!("-Wl,-rpath,{}", dir.display()))
            .arg("-lm"),
    );
    assert_matches_xla(&run_ok(&mut Command::new(&exe)));
}

/// The MLP programs print this line when all their outputs match XLA's.
pub fn assert_matches_xla(stdout: &str) {
    assert!(stdout.contains("OK: all 16 outputs match XLA"), "{stdout}");
}

/// Parses `static const float NAME[N] = { ... };` from a generated C header.
pub fn c_float_array(header: &str, name: &str) -> Vec<f32> {
    let decl = format!("static const float {name}[");
    let start = header
        .find(&decl)
        .unwrap_or_else(|| panic!("{name} not found"));
    let rest = &header[start + decl.len()..];
    let n: usize = rest[..rest.find(']').unwrap()].parse().unwrap();
    let body = &rest[rest.find('{').unwrap() + 1..rest.find("};").unwrap()];
    let values: Vec<f32> = body
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim_end_matches('f')
                .parse()
                .unwrap_or_else(|e| panic!("{name}: bad value {s:?}: {e}"))
        })
        .collect();
    assert_eq!(values.len(), n, "{name}: element count");
    values
}

/// Compiles `model` (MLIR text) to `lib<name>.a` with its Rust bindings
/// `<name>.rs` in `dir`, builds `program` (Rust that uses them as module
/// `name`) with plain rustc against the archive, runs it and returns its
/// standard output.
pub fn run_rust_with_bindings(dir: &Path, name: &str, model: &str, program: &str) -> String {
    let src = dir.join(format!("{name}.mlir"));
    std::fs::write(&src, model).unwrap();
    run_ok(
        Command::new(STRATA)
            .arg("compile")
            .arg(&src)
            .arg("-o")
            .arg(dir.join(format!("lib{name}.a")))
            .arg("--rust-bindings")
            .arg(dir.join(format!("{name}.rs"))),
    );
    let main_rs = dir.join("main.rs");
    let text = format!("mod {name} {{\n    include!(\"{name}.rs\");\n}}\n{program}");
    std::fs::write(&main_rs, text).unwrap();
    let exe = dir.join("main");
    run_ok(
        Command::new("rustc")
            .args(["--edition", "2021", "-O"])
            .arg(&main_rs)
            .arg("-L")
            .arg(dir)
            .args(["-l", &format!("static={name}"), "-o"])
            .arg(&exe),
    );
    run_ok(&mut Command::new(&exe))
}
