//! `--profile`: a model compiled with it times each top-level op of its
//! exported functions, `P_profile()` returns the table, and
//! `strata bench --profile` prints it per call, the costliest op first.
//! The times vary; what is checked is that the ops are there with their
//! labels (what they are, where their source op is), that each ran once per
//! call, and that the shares are shares.

use std::path::Path;
use std::process::Command;

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

/// A dense layer and its activation: the GEMM (line 2) dominates, the
/// bias and tanh are one fused parallel loop (line 5).
const MODEL: &str = r#"func.func @main(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>
  %a = stablehlo.add %h, %bb : tensor<64x256xf32>
  %t = stablehlo.tanh %a : tensor<64x256xf32>
  return %t : tensor<64x256xf32>
}
"#;

fn strata(args: &[&str], cwd: &Path) -> (bool, String, String) {
    let out = Command::new(STRATA)
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run strata");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `strata bench INPUT --profile`, 20 timed calls after 2, one thread.
fn bench_profile(input: &str, cwd: &Path) -> (bool, String, String) {
    let args = [
        "bench",
        input,
        "--profile",
        "--iterations",
        "20",
        "--warmup",
        "2",
        "--threads",
        "1",
    ];
    strata(&args, cwd)
}

/// The profile table's rows: (share in %, runs per call, label).
fn rows(report: &str) -> Vec<(f64, String, String)> {
    report
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("share"))
        .skip(1)
        .take_while(|l| *l != "by kind:")
        .map(|l| {
            let mut words = l.split_whitespace();
            let share = words.next().expect("share").trim_end_matches('%');
            let share: f64 = share.parse().expect("a share in %");
            let _time = (words.next(), words.next());
            let runs = words.next().expect("runs").to_string();
            (share, runs, words.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

fn check_report(stdout: &str) {
    assert!(
        stdout.contains("profile per call (mean of 20 calls; the timed ops take "),
        "{stdout}"
    );
    let rows = rows(stdout);
    let gemm = rows
        .iter()
        .find(|r| r.2.starts_with("gemm_f32 at model.mlir:2:"))
        .unwrap_or_else(|| panic!("no GEMM row:\n{stdout}"));
    assert_eq!(gemm.1, "1", "{stdout}");
    assert!(
        rows.iter()
            .any(|r| r.1 == "1" && r.2.contains("loop") && r.2.contains("at model.mlir:5:")),
        "no row for the fused bias + tanh loop:\n{stdout}"
    );
    let total: f64 = rows.iter().map(|r| r.0).sum();
    assert!(rows.iter().all(|r| r.0 >= 0.0), "{stdout}");
    // The timed ops are part of the call (rounding: 0.1% a row).
    assert!(total <= 100.0 + 0.1 * rows.len() as f64, "{stdout}");
    // Sorted costliest first.
    assert!(rows.windows(2).all(|w| w[0].0 >= w[1].0), "{stdout}");
    // Then the same time by kind: one GEMM.
    let kinds = stdout.split("\nby kind:\n").nth(1).expect("by kind");
    assert!(
        kinds.lines().any(|l| l.ends_with("      1  gemm_f32")),
        "{stdout}"
    );
}

#[test]
fn bench_profile_of_a_model_times_each_op() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("model.mlir"), MODEL).expect("write model");
    let (ok, stdout, stderr) = bench_profile("model.mlir", dir.path());
    assert!(ok, "{stderr}");
    check_report(&stdout);
}

#[test]
fn a_library_compiled_with_profile_reports_through_p_profile() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("model.mlir"), MODEL).expect("write model");
    let (ok, _, stderr) = strata(
        &[
            "compile",
            "model.mlir",
            "-o",
            "libprof.so",
            "--profile",
            "--header",
            "prof.h",
        ],
        dir.path(),
    );
    assert!(ok, "{stderr}");
    let header = std::fs::read_to_string(dir.path().join("prof.h")).expect("header");
    assert!(
        header.contains("const char *prof_profile(void);"),
        "{header}"
    );
    let (ok, stdout, stderr) = bench_profile("libprof.so", dir.path());
    assert!(ok, "{stderr}");
    check_report(&stdout);

    // Without --profile there is no table to read: a located refusal.
    let (ok, _, stderr) = strata(&["compile", "model.mlir", "-o", "libplain.so"], dir.path());
    assert!(ok, "{stderr}");
    let (ok, _, stderr) = strata(&["bench", "libplain.so", "--profile"], dir.path());
    assert!(!ok);
    assert!(
        stderr.contains(
            "libplain.so: error: no plain_profile(): the library was not compiled with --profile"
        ),
        "{stderr}"
    );
}
