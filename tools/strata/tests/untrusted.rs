//! A model file is untrusted input: regression tests for each way a hostile
//! model (or a hostile neighbour on a shared machine) reached host code,
//! generated source or the linker before.
//!
//! - custom calls never bind to a process symbol: `@system` with a shell
//!   command runs nothing in `strata run`, `strata check` or a compiled
//!   library called from C (where libc's `system` is right there), and the
//!   library has no undefined symbol named after a target;
//! - a target named like one of the library's exports is a located error;
//! - names that would inject C or Rust are located errors, and nothing
//!   from the model reaches the header or bindings outside an escaped
//!   comment;
//! - a runtime archive planted where earlier versions cached it, or a
//!   symbolic link planted in Strata's private directory, is never linked;
//! - call-graph cycles (StableHLO and HLO text) are located errors;
//! - a killed `strata run` leaves no library behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

fn show(out: &Output) -> String {
    format!(
        "status: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn strata(dir: &Path, args: &[&str]) -> Output {
    Command::new(STRATA)
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", dir)
        .output()
        .expect("strata runs")
}

fn ok(dir: &Path, args: &[&str]) -> Output {
    let out = strata(dir, args);
    assert!(out.status.success(), "strata {args:?}\n{}", show(&out));
    out
}

/// Exit status 1 and a located error (`FILE:LINE:COL: error:`) containing `want`.
fn located_error(dir: &Path, args: &[&str], file: &str, want: &str) -> String {
    let out = strata(dir, args);
    // `strata check` reports its pieces' failures on standard output.
    let err = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "strata {args:?}\n{}",
        show(&out)
    );
    let prefix = format!("{file}:");
    let located = err.lines().any(|l| {
        l.strip_prefix(&prefix).is_some_and(|rest| {
            let mut parts = rest.splitn(3, ':');
            let line = parts.next().is_some_and(|p| p.parse::<u32>().is_ok());
            let col = parts.next().is_some_and(|p| p.parse::<u32>().is_ok());
            line && col && parts.next().is_some_and(|p| p.starts_with(" error:"))
        })
    });
    assert!(located, "no located error in\n{err}");
    assert!(err.contains(want), "expected {want:?} in\n{err}");
    err
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `custom_call @system` on the bytes of a shell command that would create
/// `marker` (NUL-terminated), with a check so `strata check` runs it too.
fn system_model(marker: &Path) -> String {
    let command = format!("touch {}", marker.display());
    let bytes: Vec<String> = command
        .bytes()
        .chain(std::iter::once(0))
        .map(|b| b.to_string())
        .collect();
    let n = bytes.len();
    format!(
        r#"func.func @main() -> tensor<{n}xi8> {{
  %c = stablehlo.constant dense<[{}]> : tensor<{n}xi8>
  %r = stablehlo.custom_call @system(%c) : (tensor<{n}xi8>) -> tensor<{n}xi8>
  %u = stablehlo.custom_call @unlink(%c) : (tensor<{n}xi8>) -> tensor<{n}xi8>
  %m = stablehlo.custom_call @_ZN4core9panicking13assert_failed17h0123456789abcdefE(%c) : (tensor<{n}xi8>) -> tensor<{n}xi8>
  check.expect_eq_const %r, dense<0> : tensor<{n}xi8>
  return %r : tensor<{n}xi8>
}}
"#,
        bytes.join(", ")
    )
}

#[test]
fn custom_calls_run_no_host_code_the_host_did_not_register() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let marker = dir.join("pwned");
    write(dir, "sys.mlir", &system_model(&marker));

    let run = strata(dir, &["run", "sys.mlir"]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{}", show(&run));
    assert!(err.contains("'system' is not registered"), "{err}");
    let check = strata(dir, &["check", "sys.mlir"]);
    assert_eq!(check.status.code(), Some(1), "{}", show(&check));
    assert!(String::from_utf8_lossy(&check.stdout).contains("0 passed, 1 failed"));

    // A library called from C, where libc's system() is linked in.
    ok(
        dir,
        &[
            "compile",
            "sys.mlir",
            "-o",
            "libsys.so",
            "--header",
            "sys.h",
        ],
    );
    let undefined = Command::new("nm")
        .args(["-D", "--undefined-only"])
        .arg(dir.join("libsys.so"))
        .output()
        .unwrap();
    let undefined = String::from_utf8_lossy(&undefined.stdout);
    for target in ["system", "unlink", "_ZN4core9panicking"] {
        assert!(
            !undefined.contains(target),
            "the library refers to {target}:\n{undefined}"
        );
    }
    write(
        dir,
        "main.c",
        r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sys.h"
int main(void) {
  int8_t out[SYS_MAIN_RES0_COUNT];
  if (sys_main(out) == 0) return 1;
  printf("%s\n", sys_last_error());
  return strstr(sys_last_error(), "'system' is not registered") ? 0 : 1;
}
"#,
    );
    let built = Command::new("cc")
        .current_dir(dir)
        .args([
            "main.c",
            "-I.",
            "-L.",
            "-lsys",
            "-Wl,-rpath,.",
            "-o",
            "main",
        ])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", show(&built));
    let ran = Command::new(dir.join("main"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", show(&ran));
    assert!(!marker.exists(), "the model ran a shell command");
}

#[test]
fn a_target_named_like_an_export_is_a_located_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for export in [
        "m_main",
        "m_last_error",
        "m_set_num_threads",
        "m_register_custom_call",
    ] {
        write(
            dir,
            "m.mlir",
            &format!(
                "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{\n  \
                 %y = stablehlo.custom_call @{export}(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  \
                 return %y : tensor<4xf32>\n}}\n"
            ),
        );
        located_error(
            dir,
            &["compile", "m.mlir", "-o", "libm.so"],
            "m.mlir",
            "names one of the library's own exports",
        );
    }
}

/// A function name carrying C (or Rust) code, and names whose generated
/// identifiers collide, are located errors; nothing is written.
#[test]
fn names_never_reach_generated_source_unchecked() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let body = "(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n";
    let cases = [
        (
            "func.func public @\"main(void);\\n__attribute__((constructor)) static void x(void) { system(\\\"id\\\"); }\\nint32_t y\"",
            "is not a C identifier",
        ),
        ("func.func public @\"a*/b\"", "is not a C identifier"),
        ("func.func public @last_error", "the library's own API"),
    ];
    for (decl, want) in cases {
        write(dir, "n.mlir", &format!("{decl}{body}"));
        let err = located_error(
            dir,
            &[
                "compile",
                "n.mlir",
                "-o",
                "libn.so",
                "--header",
                "n.h",
                "--rust-bindings",
                "n.rs",
            ],
            "n.mlir",
            want,
        );
        assert!(!err.contains("\n__attribute__"), "{err}");
        assert!(!dir.join("n.h").exists() && !dir.join("n.rs").exists());
    }
    write(
        dir,
        "n.mlir",
        &format!("func.func @f{body}func.func @F{body}"),
    );
    located_error(
        dir,
        &["compile", "n.mlir", "-o", "libn.so", "--header", "n.h"],
        "n.mlir",
        "N_F_ARG0_COUNT is also generated for @f",
    );
    // A 10 MB exported name: refused at once (it took 65 s in the link),
    // by compile and by check, and the message quotes only its start.
    let long = "f".repeat(10 << 20);
    write(dir, "long.mlir", &format!("func.func @{long}{body}"));
    let start = std::time::Instant::now();
    let err = located_error(
        dir,
        &["compile", "long.mlir", "-o", "liblong.so"],
        "long.mlir",
        "at most 255",
    );
    assert!(
        err.len() < 4096,
        "the message echoes the name: {} bytes",
        err.len()
    );
    located_error(dir, &["check", "long.mlir"], "long.mlir", "at most 255");
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    // Hostile text in the input's path reaches the bindings only in a
    // comment (a directory "x *" gives the path "x */...").
    std::fs::create_dir(dir.join("x *")).unwrap();
    let evil = "x */\nfn pwned() {}\n.mlir";
    write(dir, evil, &format!("func.func @main{body}"));
    ok(
        dir,
        &[
            "compile",
            evil,
            "-o",
            "libe.so",
            "--rust-bindings",
            "e.rs",
            "--name",
            "e",
        ],
    );
    let bindings = std::fs::read_to_string(dir.join("e.rs")).unwrap();
    assert!(!bindings.contains("\nfn pwned"), "{bindings}");
}

/// The archive embedded in the driver is what gets linked: a file planted
/// where Strata cached it before (`$TMPDIR/strata-runtime-<hash>.a`, the
/// same size, a linker script pulling in another object), or a symbolic
/// link planted in the private directory, is not used; a private directory
/// that others can enter is refused.
#[test]
fn planted_runtime_archives_are_never_linked() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        "m.mlir",
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n",
    );
    // A first compile extracts the archive; learn its name and size.
    ok(dir, &["compile", "m.mlir", "-o", "libm.so"]);
    let uid = std::fs::metadata(dir.join("m.mlir"))
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
        .unwrap();
    let private = dir.join(format!("strata-{uid}"));
    let archive = std::fs::read_dir(&private)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "a"))
        .expect("the runtime archive was extracted into the private directory");
    let size = std::fs::metadata(&archive).unwrap().len() as usize;
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);

    // The evil archive: a linker script of the same size that would make
    // every link fail loudly if it were used.
    let mut script = b"INPUT(/nonexistent/planted.o)\n".to_vec();
    script.resize(size, b' ');
    let hash = archive
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("runtime-"))
        .unwrap()
        .to_string();
    std::fs::write(dir.join(format!("strata-runtime-{hash}.a")), &script).unwrap();
    let planted = dir.join("planted.a");
    std::fs::write(&planted, &script).unwrap();
    std::fs::remove_file(&archive).unwrap();
    std::os::unix::fs::symlink(&planted, &archive).unwrap();
    ok(dir, &["compile", "m.mlir", "-o", "libm2.so"]);
    assert!(
        !std::fs::symlink_metadata(&archive)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // Opened up to others: refused, with a message.
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = strata(dir, &["compile", "m.mlir", "-o", "libm3.so"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("other users have access"),
        "{}",
        show(&out)
    );
}

#[test]
fn call_graph_cycles_are_located_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        "rec.mlir",
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
"#,
    );
    for args in [
        &["compile", "rec.mlir", "-o", "librec.so"][..],
        &["check", "rec.mlir"],
        &["run", "rec.mlir", "--input", "[1, 2, 3, 4]"],
    ] {
        located_error(
            dir,
            args,
            "rec.mlir",
            "call each other in a cycle (@f -> @g -> @f)",
        );
    }
    write(
        dir,
        "rec.hlo",
        r#"HloModule rec

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] call(a, b), to_apply=add
}

ENTRY main {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add
}
"#,
    );
    located_error(
        dir,
        &["compile", "rec.hlo", "-o", "librec.so"],
        "rec.hlo",
        "cycle (@add -> @add)",
    );
    write(
        dir,
        "loop.hlo",
        r#"HloModule rec

cond {
  a = f32[4] parameter(0)
  ROOT t = pred[] constant(true)
}

body {
  a = f32[4] parameter(0)
  ROOT w = f32[4] while(a), condition=cond, body=body
}

ENTRY main {
  x = f32[4] parameter(0)
  ROOT r = f32[4] while(x), condition=cond, body=body
}
"#,
    );
    located_error(
        dir,
        &["compile", "loop.hlo", "-o", "librec.so"],
        "loop.hlo",
        "uses itself",
    );
    write(
        dir,
        "branch.hlo",
        r#"HloModule rec

b0 {
  a = f32[4] parameter(0)
  i = s32[] constant(0)
  ROOT c = f32[4] conditional(i, a, a), branch_computations={b1, b0}
}

b1 {
  a = f32[4] parameter(0)
  ROOT n = f32[4] negate(a)
}

ENTRY main {
  x = f32[4] parameter(0)
  i = s32[] constant(0)
  ROOT r = f32[4] conditional(i, x, x), branch_computations={b0, b1}
}
"#,
    );
    located_error(
        dir,
        &["compile", "branch.hlo", "-o", "librec.so"],
        "branch.hlo",
        "uses itself",
    );
}

/// `strata run` killed while the model runs leaves no library in the
/// temporary directory (it was deleted once loaded), and a scratch
/// directory left by a kill during linking is removed by the next run.
#[test]
fn a_killed_run_leaves_no_library_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // 2^40 iterations of a float recurrence LLVM cannot fold away: runs far
    // longer than the test waits.
    write(
        dir,
        "spin.mlir",
        r#"func.func @main() -> tensor<f64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %end = stablehlo.constant dense<1099511627776> : tensor<i64>
  %x0 = stablehlo.constant dense<0.5> : tensor<f64>
  %r:2 = stablehlo.while(%i = %zero, %x = %x0) : tensor<i64>, tensor<f64>
   cond {
    %c = stablehlo.compare LT, %i, %end : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i64>
    %y = stablehlo.cosine %x : tensor<f64>
    stablehlo.return %n, %y : tensor<i64>, tensor<f64>
  }
  return %r#1 : tensor<f64>
}
"#,
    );
    let uid = std::fs::metadata(dir.join("spin.mlir"))
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
        .unwrap();
    let private = dir.join(format!("strata-{uid}"));
    // A scratch directory of a process that no longer exists.
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(&private)
        .unwrap();
    std::fs::create_dir(private.join(format!("jit-{}-stale", i32::MAX))).unwrap();
    std::fs::write(
        private.join(format!("jit-{}-stale/libstrata_jit.so", i32::MAX)),
        b"x",
    )
    .unwrap();
    let mut child = Command::new(STRATA)
        .args(["run", "spin.mlir"])
        .current_dir(dir)
        .env("TMPDIR", dir)
        .spawn()
        .unwrap();
    // Wait until the library is loaded and running: its scratch directory
    // has come and gone.
    let start = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(200));
        let scratch = std::fs::read_dir(&private)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("jit-"))
            })
            .unwrap_or(true);
        if !scratch && start.elapsed().as_secs_f64() > 0.5 {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "the run never loaded its library"
        );
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left: Vec<String> = walk(dir)
        .into_iter()
        .filter(|p| p.ends_with("libstrata_jit.so"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out
}

/// The driver's rails: an output that is the input under another name (a
/// hard or symbolic link) is refused and the input survives; `strata run`
/// reads no more of an input file than the argument needs, refuses a result
/// larger than the machine before running, and reports a failed call with
/// the library's own message.
#[test]
fn driver_rails_hold_against_hostile_paths_and_sizes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let model =
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n";
    write(dir, "m.mlir", model);
    std::fs::hard_link(dir.join("m.mlir"), dir.join("hard.so")).unwrap();
    std::os::unix::fs::symlink(dir.join("m.mlir"), dir.join("soft.h")).unwrap();
    for args in [
        &["compile", "m.mlir", "-o", "hard.so"][..],
        &["compile", "m.mlir", "-o", "libm.so", "--header", "soft.h"],
    ] {
        let out = strata(dir, args);
        assert_eq!(out.status.code(), Some(1), "{}", show(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("is the input file"),
            "{}",
            show(&out)
        );
    }
    assert_eq!(std::fs::read_to_string(dir.join("m.mlir")).unwrap(), model);

    let out = strata(dir, &["run", "m.mlir", "--input", "@/dev/zero"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("holds more than the 16 bytes"),
        "{}",
        show(&out)
    );

    write(
        dir,
        "big.mlir",
        "func.func @main() -> tensor<1099511627776xf32> {\n  \
         %c = stablehlo.constant dense<1.0> : tensor<1099511627776xf32>\n  \
         return %c : tensor<1099511627776xf32>\n}\n",
    );
    located_error(
        dir,
        &["run", "big.mlir"],
        "big.mlir",
        "cannot be held: it needs 4398046511104 bytes",
    );

    write(
        dir,
        "fail.mlir",
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  \
         %y = stablehlo.custom_call @host_op(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  \
         return %y : tensor<4xf32>\n}\n",
    );
    located_error(
        dir,
        &["run", "fail.mlir", "--input", "[1, 2, 3, 4]"],
        "fail.mlir",
        "@main failed at run time (status 1): custom_call target 'host_op' is not registered",
    );
}

/// `--custom-calls LIB` registers LIB's own definitions of the model's
/// targets for `strata run` and `strata check`; a target LIB does not
/// define itself (`system`, which resolves into LIB's libc) stays
/// unregistered.
#[test]
fn run_and_check_take_implementations_only_from_the_users_library() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        "impl.c",
        r#"#include <stdint.h>
#include <stdlib.h>
int32_t my_scale(void *user, const void *const *operands, void *const *results) {
  const float *x = operands[0];
  float *y = results[0];
  (void)user;
  for (int i = 0; i < 4; i++) y[i] = 10.0f * x[i];
  return 0;
}
int uses_libc(void) { return system(0); }
"#,
    );
    let built = Command::new("cc")
        .current_dir(dir)
        .args(["-shared", "-fPIC", "impl.c", "-o", "libimpl.so"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", show(&built));
    write(
        dir,
        "m.mlir",
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.custom_call @my_scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @probe() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = stablehlo.custom_call @my_scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %y, dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  return
}
"#,
    );
    let out = ok(
        dir,
        &[
            "run",
            "m.mlir",
            "--input",
            "[1, 2, 3, 4]",
            "--custom-calls",
            "libimpl.so",
        ],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>"),
        "{}",
        show(&out)
    );
    let out = ok(dir, &["check", "m.mlir", "--custom-calls", "libimpl.so"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 passed, 0 failed"),
        "{}",
        show(&out)
    );
    let marker = dir.join("pwned");
    write(dir, "sys.mlir", &system_model(&marker));
    let out = strata(dir, &["run", "sys.mlir", "--custom-calls", "libimpl.so"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'system' is not registered"),
        "{}",
        show(&out)
    );
    assert!(!marker.exists(), "the model ran a shell command");
}

/// NULL for a buffer that holds data is an error with a message, not a
/// crash; a buffer without elements may be NULL.
#[test]
fn null_buffers_are_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        "m.mlir",
        "func.func @main(%x: tensor<4xf32>, %e: tensor<0xf32>) -> tensor<4xf32> {\n  \
         return %x : tensor<4xf32>\n}\n",
    );
    ok(
        dir,
        &[
            "compile", "m.mlir", "--name", "m", "-o", "libnb.so", "--header", "m.h",
        ],
    );
    write(
        dir,
        "main.c",
        r#"#include <stdio.h>
#include <string.h>
#include "m.h"
int main(void) {
  float x[4] = {1, 2, 3, 4}, y[4];
  if (m_main(x, NULL, y) != 0) { printf("empty: %s\n", m_last_error()); return 1; }
  if (m_main(NULL, NULL, y) != 1 || !strstr(m_last_error(), "m_main: buffer parameter 1 of 3 is NULL")) {
    printf("arg: %s\n", m_last_error()); return 1;
  }
  if (m_main(x, NULL, NULL) != 1 || !strstr(m_last_error(), "buffer parameter 3 of 3 is NULL")) {
    printf("result: %s\n", m_last_error()); return 1;
  }
  printf("null ok\n");
  return 0;
}
"#,
    );
    let built = Command::new("cc")
        .current_dir(dir)
        .args(["main.c", "-I.", "-L.", "-lnb", "-Wl,-rpath,.", "-o", "main"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", show(&built));
    let ran = Command::new(dir.join("main"))
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", show(&ran));
}

/// JAX's Python host callbacks call back into the process that traced the
/// model: a located "not supported" that names the JAX function (as JAX
/// 0.10 exports them: one target, told apart by side effects and results).
#[test]
fn jax_host_callbacks_are_named_and_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cases = [
        (
            "{backend_config = \"\", mhlo.backend_config = {index = 0 : ui64}}",
            "-> tensor<4xf32>",
            "jax.pure_callback",
        ),
        (
            "{backend_config = \"\", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}}",
            "-> tensor<4xf32>",
            "jax.experimental.io_callback",
        ),
        (
            "{backend_config = \"\", has_side_effect = true, mhlo.backend_config = {index = 0 : ui64}}",
            "-> ()",
            "jax.debug.callback",
        ),
    ];
    for (attrs, result, api) in cases {
        let call = if result == "-> ()" {
            format!(
                "    stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {attrs} : (tensor<4xf32>) -> ()\n    return %x : tensor<4xf32>"
            )
        } else {
            format!(
                "    %0 = stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {attrs} : (tensor<4xf32>) {result}\n    return %0 : tensor<4xf32>"
            )
        };
        write(
            dir,
            "cb.mlir",
            &format!("func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {{\n{call}\n}}\n"),
        );
        let err = located_error(
            dir,
            &["compile", "cb.mlir", "-o", "libcb.so"],
            "cb.mlir",
            &format!("{api}"),
        );
        assert!(err.contains("is not supported"), "{err}");
    }
}
