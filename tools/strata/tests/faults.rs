//! Faults around a compiled library, through its C ABI (the programs are in
//! `tests/e2e/faults/`, the model is `tests/e2e/faults/model.mlir`):
//!
//! - a call in the child of `fork()` after the parent woke the thread pool
//!   completes (`fork.c`);
//! - an MPI rank that leaves without reaching a collective (or stays busy
//!   elsewhere) makes the other ranks fail, naming it, once
//!   `STRATA_COLLECTIVE_TIMEOUT_MS` has passed, and the job ends
//!   (`mpi_leave.c` under `mpirun`);
//! - thread counts from `P_set_num_threads` and `STRATA_NUM_THREADS` are
//!   capped at 4 x the CPUs, bad `STRATA_NUM_THREADS` values mean the
//!   default, `P_replicas_run` refuses more than 4096 devices, bad
//!   collective timeouts are refused, and a device that arrives after the
//!   others gave up names the missing devices (`limits.c`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

fn faults_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/e2e/faults")
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

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

fn run_ok(cmd: &mut Command) -> String {
    let out = run(cmd);
    assert!(out.status.success(), "{cmd:?} failed\n{}", show(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles the model (prefix `flt`, with `options`) into `dir` and links
/// `program` against it; returns the executable.
fn build(dir: &Path, program: &str, options: &[&str]) -> PathBuf {
    let src = faults_dir();
    let lib = dir.join("libflt.so");
    if !lib.exists() {
        run_ok(
            Command::new(STRATA)
                .arg("compile")
                .arg(src.join("model.mlir"))
                .arg("-o")
                .arg(&lib)
                .args(["--name", "flt"])
                .args(options)
                .arg("--header")
                .arg(dir.join("flt.h")),
        );
    }
    let exe = dir.join(program.trim_end_matches(".c"));
    run_ok(
        Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
            .args(["-O1", "-Wall", "-Werror"])
            .arg(src.join(program))
            .arg("-I")
            .arg(dir)
            .arg("-I")
            .arg(&src)
            .arg(&lib)
            .arg(format!("-Wl,-rpath,{}", dir.display()))
            .args(["-lpthread", "-o"])
            .arg(&exe),
    );
    exe
}

#[test]
fn a_call_in_a_forked_child_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = build(tmp.path(), "fork.c", &[]);
    let out = run_ok(&mut Command::new(&exe));
    assert!(out.contains("fork ok"), "{out}");
}

/// `threads T cap C` from limits.c.
fn pool_threads(out: &str) -> (usize, usize) {
    let words: Vec<&str> = out.split_whitespace().collect();
    match words[..] {
        ["threads", t, "cap", c, ..] => (t.parse().unwrap(), c.parse().unwrap()),
        _ => panic!("unexpected output {out:?}"),
    }
}

#[test]
fn thread_counts_are_capped_and_bad_environment_values_mean_the_default() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = build(tmp.path(), "limits.c", &[]);
    let limits = |args: &[&str], env: Option<&str>| {
        let mut cmd = Command::new(&exe);
        cmd.args(args).env_remove("STRATA_NUM_THREADS");
        if let Some(v) = env {
            cmd.env("STRATA_NUM_THREADS", v);
        }
        // 10,000 threads used to take minutes per call.
        let start = Instant::now();
        let out = run_ok(&mut cmd);
        assert!(start.elapsed() < Duration::from_secs(20), "{args:?}: {out}");
        pool_threads(&out)
    };
    // The default is the CPUs the process may use (as the runtime counts
    // them: affinity and cgroup quota); the cap is 4 times that, which
    // limits.c's affinity count bounds from above.
    let (default, affinity_cap) = limits(&["env"], None);
    let cap = 4 * default;
    assert!(
        default >= 1 && cap <= affinity_cap,
        "{default} {affinity_cap}"
    );
    for n in ["10000", "2147483647"] {
        assert_eq!(
            limits(&["threads", n], None).0,
            cap,
            "P_set_num_threads({n})"
        );
    }
    assert_eq!(limits(&["threads", "2"], None).0, 2);
    assert_eq!(limits(&["env"], Some("10000")).0, cap);
    assert_eq!(limits(&["env"], Some("2")).0, 2);
    for bad in ["abc", "0", "-1", ""] {
        assert_eq!(
            limits(&["env"], Some(bad)).0,
            default,
            "STRATA_NUM_THREADS={bad:?}"
        );
    }
}

#[test]
fn replica_runs_refuse_too_many_devices_and_bad_timeouts_and_name_late_devices() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = build(tmp.path(), "limits.c", &[]);
    for check in ["devices", "timeouts", "late"] {
        let out = run_ok(
            Command::new(&exe)
                .arg(check)
                .env_remove("STRATA_COLLECTIVE_TIMEOUT_MS"),
        );
        assert!(out.contains(&format!("{check} ok")), "{check}: {out}");
    }
}

/// Runs `cmd` in a process group of its own; past `limit` the whole group
/// (mpirun and its ranks) is killed and the test fails: a hang must not
/// hang the suite.
fn run_with_limit(cmd: &mut Command, limit: Duration) -> (Output, Duration) {
    use std::os::unix::process::CommandExt;
    let start = Instant::now();
    let mut child = cmd
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let pid = child.id();
    // Drain the pipes on threads so a chatty job cannot block on them.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).ok();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).ok();
        v
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .status();
            let _ = child.wait();
            panic!(
                "{cmd:?} still ran after {limit:?} (killed)\n--- stdout ---\n{}",
                String::from_utf8_lossy(&out.join().unwrap_or_default())
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let elapsed = start.elapsed();
    let output = Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    (output, elapsed)
}

/// `device D ok BITS` lines of collectives.c, sorted by device.
fn device_lines(printed: &str) -> Vec<String> {
    let mut lines: Vec<String> = printed
        .lines()
        .filter(|l| l.starts_with("device "))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

/// The MPI collectives move data by point-to-point messages and fold
/// all_reduce slices in member order, as the threads backend does: @ops
/// (an i32 max and an f64 product of odd sizes, an all_gather, a
/// collective_permute) is right on both and gives the same bits.
#[test]
fn mpi_and_threads_compute_collectives_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let (threads, mpi) = (tmp.path().join("threads"), tmp.path().join("mpi"));
    std::fs::create_dir(&threads).unwrap();
    std::fs::create_dir(&mpi).unwrap();
    let on_threads = build(&threads, "collectives.c", &[]);
    let over_mpi = build(&mpi, "collectives.c", &["--collectives", "mpi"]);
    let printed = run_ok(&mut Command::new(&on_threads));
    let want = device_lines(&printed);
    assert_eq!(want.len(), 3, "{printed}");
    for (d, line) in want.iter().enumerate() {
        assert!(line.starts_with(&format!("device {d} ok ")), "{printed}");
    }
    let (out, _) = run_with_limit(
        Command::new("mpirun")
            .args(["--allow-run-as-root", "--oversubscribe", "-np", "3"])
            .arg(&over_mpi)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
        Duration::from_secs(90),
    );
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        device_lines(&String::from_utf8_lossy(&out.stdout)),
        want,
        "{}",
        show(&out)
    );
}

/// Three MPI ranks where rank 1 leaves early (never calling the collective,
/// or calling it once of twice, or never calling it and then staying busy
/// elsewhere): ranks 0 and 2 fail within the timeout with a message naming
/// device 1, and the job ends instead of hanging.
#[test]
fn an_mpi_rank_that_leaves_early_fails_the_others_within_the_timeout() {
    const TIMEOUT_MS: u128 = 2000;
    let tmp = tempfile::tempdir().unwrap();
    let exe = build(tmp.path(), "mpi_leave.c", &["--collectives", "mpi"]);
    for (mode, call) in [("never", 1), ("once", 2), ("stuck", 1)] {
        let (out, elapsed) = run_with_limit(
            Command::new("mpirun")
                .args(["--allow-run-as-root", "--oversubscribe", "-np", "3"])
                .arg(&exe)
                .arg(mode)
                .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
                .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
                .env("STRATA_COLLECTIVE_TIMEOUT_MS", TIMEOUT_MS.to_string()),
            Duration::from_secs(90),
        );
        let printed = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            !out.status.success(),
            "{mode}: the job succeeded\n{}",
            show(&out)
        );
        assert!(
            printed.contains("rank 1: run returned 0"),
            "{mode}: rank 1 leaves without an error\n{}",
            show(&out)
        );
        for rank in [0, 2] {
            let prefix = format!("rank {rank}: call {call} failed after ");
            let line = printed
                .lines()
                .find(|l| l.starts_with(&prefix))
                .unwrap_or_else(|| panic!("{mode}: rank {rank} did not fail\n{}", show(&out)));
            let ms: u128 = line[prefix.len()..]
                .split(' ')
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{line}"));
            assert!(
                (TIMEOUT_MS - 50..TIMEOUT_MS + 1500).contains(&ms),
                "{mode}: rank {rank} failed after {ms} ms, not within the {TIMEOUT_MS} ms timeout: {line}"
            );
            assert!(
                line.contains(&format!(
                    "collective #{call} timed out after {TIMEOUT_MS} ms: device(s) [1] of "
                )),
                "{mode}: {line}"
            );
            assert!(
                printed.contains(&format!(
                    "rank {rank}: run returned 1: device {rank}: collective #{call} timed out"
                )),
                "{mode}: rank {rank}'s run\n{}",
                show(&out)
            );
        }
        // Startup, the timeout and (stuck: rank 1 never finalizes) at most
        // another timeout in MPI_Finalize; then mpirun ends the job, long
        // before rank 1's 5-minute sleep would.
        assert!(
            elapsed < Duration::from_secs(45),
            "{mode}: the job took {elapsed:?}"
        );
    }
}

/// Ranks that meet at one collective with operands of different sizes all
/// fail at once, saying so, instead of exchanging mismatched buffers (or
/// waiting for the timeout).
#[test]
fn mpi_ranks_with_operands_of_different_sizes_fail_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let exe = build(tmp.path(), "mpi_leave.c", &["--collectives", "mpi"]);
    let (out, _) = run_with_limit(
        Command::new("mpirun")
            .args(["--allow-run-as-root", "--oversubscribe", "-np", "3"])
            .arg(&exe)
            .arg("sizes")
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("STRATA_COLLECTIVE_TIMEOUT_MS", "20000"),
        Duration::from_secs(90),
    );
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!out.status.success(), "the job succeeded\n{}", show(&out));
    for rank in 0..3 {
        let prefix = format!("rank {rank}: call 1 failed after ");
        let line = printed
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("rank {rank} did not fail\n{}", show(&out)));
        let ms: f64 = line[prefix.len()..]
            .split(' ')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(ms < 5000.0, "rank {rank} waited {ms} ms: {line}");
        assert!(
            line.contains("operands differ in size between processes"),
            "{line}"
        );
    }
}
