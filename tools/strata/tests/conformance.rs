//! Runs `strata check` on StableHLO's interpreter suite
//! (`../shared/conformance/stablehlo-interpret/`, beside the repository).
//!
//! `EXPECTED_TO_PASS` lists the files whose ops are all implemented; each
//! must pass completely, on both backends. The whole directory is run too
//! (files added to the suite included): no piece may fail.

use std::path::PathBuf;
use std::process::Command;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

/// Files without any check.* op: every piece must compile and run.
const RUN_WITHOUT_CHECKS: &[&str] = &["after_all", "outfeed"];

/// Files whose every piece must pass.
const EXPECTED_TO_PASS: &[&str] = &[
    "abs",
    "all_gather",
    "all_reduce",
    "all_to_all",
    "collective_broadcast",
    "collective_permute",
    "collective_reduce",
    "partition_id",
    "reduce_precision",
    "reduce_scatter",
    "replica_id",
    "add",
    "and",
    "atan2",
    "bitcast_convert",
    "broadcast_in_dim",
    "call",
    "cbrt",
    "ceil",
    "check",
    "clamp",
    "compare",
    "complex",
    "concatenate",
    "constant",
    "convert",
    "convolution",
    "cosine",
    "count_leading_zeros",
    "divide",
    "dot_general",
    "dynamic_broadcast_in_dim",
    "dynamic_conv",
    "dynamic_gather",
    "dynamic_iota",
    "dynamic_pad",
    "dynamic_reshape",
    "dynamic_slice",
    "dynamic_update_slice",
    "exponential",
    "fft",
    "gather",
    "scatter",
    "exponential_minus_one",
    "floor",
    "if",
    "case",
    "while",
    "imag",
    "infeed",
    "send_recv",
    "iota",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "maximum",
    "minimum",
    "map",
    "mulhi",
    "multiply",
    "negate",
    "not",
    "optimization_barrier",
    "or",
    "pad",
    "popcnt",
    "power",
    "real",
    "reduce",
    "reduce_window",
    "remainder",
    "reshape",
    "reverse",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "select",
    "select_and_scatter",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "sine",
    "slice",
    "sort",
    "sqrt",
    "subtract",
    "tan",
    "tanh",
    "transpose",
    "triangular_solve",
    "tuple_and_get_tuple_element",
    "xor",
    "get_dimension_size",
    "composite",
    "ragged_dot",
    "scan",
    "quantized_ops",
];

/// Interpreter-only files: DESIGN.md excludes `probe` and `printing`;
/// `api_input_arguments` tests `stablehlo-translate --interpret --args`
/// (its one function takes arguments, so `strata check` has nothing to run).
const EXCLUDED: &[&str] = &["probe", "printing", "api_input_arguments"];

fn suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance/stablehlo-interpret")
}

/// `(passed, failed, output)` of `strata check --backend BACKEND FILE`.
fn check(file: &PathBuf, backend: &str) -> (usize, usize, String) {
    let out = Command::new(STRATA)
        .args(["check", "--backend", backend])
        .arg(file)
        .output()
        .expect("run strata check");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.code().is_some_and(|c| c == 0 || c == 1) && !stderr.contains("panicked"),
        "strata check {} crashed: {:?}\n{stderr}",
        file.display(),
        out.status
    );
    let last = stdout.lines().last().unwrap_or("").to_string();
    let nums: Vec<usize> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    assert_eq!(
        nums.len(),
        2,
        "no summary line from strata check {}:\n{stdout}",
        file.display()
    );
    (nums[0], nums[1], stdout)
}

#[test]
fn conformance_files_of_implemented_ops_pass() {
    implemented_ops_pass("native");
}

/// The same files through the second backend (the loop level lowered by
/// upstream MLIR's passes): it must pass what the native backend passes.
#[test]
fn conformance_files_of_implemented_ops_pass_on_the_mlir_backend() {
    implemented_ops_pass("mlir");
}

fn implemented_ops_pass(backend: &str) {
    let dir = suite();
    assert!(
        dir.is_dir(),
        "conformance suite not found at {}",
        dir.display()
    );
    let mut failures = Vec::new();
    for name in EXPECTED_TO_PASS {
        let (passed, failed, out) = check(&dir.join(format!("{name}.mlir")), backend);
        if failed > 0 || passed == 0 {
            failures.push(format!(
                "{name}.mlir ({backend}): {passed} passed, {failed} failed\n{out}"
            ));
        }
    }
    for name in RUN_WITHOUT_CHECKS {
        let (_, failed, out) = check(&dir.join(format!("{name}.mlir")), backend);
        if failed > 0 || !out.contains("contain no check.* op") {
            failures.push(format!("{name}.mlir ({backend}): {failed} failed\n{out}"));
        }
    }
    assert!(
        failures.is_empty(),
        "conformance failures:\n{}",
        failures.join("\n")
    );
}

/// Every file of the suite, listed or not (new files included): no piece
/// fails, and every file with checks passes at least one.
#[test]
fn whole_suite_passes() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite())
        .expect("conformance suite")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .filter(|p| {
            !EXCLUDED
                .iter()
                .any(|x| p.file_stem().is_some_and(|s| s == *x))
        })
        .collect();
    files.sort();
    let (mut passed, mut failed) = (0, 0);
    let mut problems = Vec::new();
    for f in &files {
        let (p, q, out) = check(f, "native");
        passed += p;
        failed += q;
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if q > 0 || (p == 0 && !RUN_WITHOUT_CHECKS.contains(&stem)) {
            problems.push(format!("{stem}: {p} passed, {q} failed\n{out}"));
        }
    }
    println!("whole suite: {passed} passed, {failed} failed (pieces)");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
