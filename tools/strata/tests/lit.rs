//! A small lit-style runner for the IR tests under the top-level `tests/` directory.
//!
//! Every `*.mlir` file below `tests/` (recursively) is a test if it has at least one
//! `// RUN: <shell pipeline>` line (a trailing `\` continues a RUN line on the next one). Each
//! RUN line runs with `bash -o pipefail -c` in a fresh temporary directory, after these
//! substitutions:
//! - `%s` → the test file's path, `%S` → its directory, `%t` → a per-test temporary path
//!   (`%t` itself does not exist; use it as a file name or `mkdir %t`), `%T` → the temporary
//!   directory, `%%` → `%`;
//! - the command words `strata`, `FileCheck`, `not` and `count` (words in command position:
//!   at the start of the line or after `|`, `||`, `&&`, `;`, `!`, `not` or a `NAME=value`
//!   assignment) → the driver under
//!   test and LLVM 22's `FileCheck`, `not` and `count` (`/usr/lib/llvm-22/bin`, or
//!   `$STRATA_LLVM_BIN`).
//!
//! A test passes when all its RUN lines exit 0. A file without RUN lines fails (a test that
//! cannot run must not pass silently), except in [`INPUT_DIRS`], whose files are the inputs of
//! other harnesses (trycmd's CLI cases, the C and Rust end-to-end programs). Each file
//! is one test named by its path below `tests/` (libtest-mimic harness), so the usual filters
//! work: `cargo test -p strata --test lit -- reduce` runs the files whose path contains
//! `reduce`, `-- --list` lists them; a failure prints the command and its output.
//!
//! `STRATA_LIT_FILTER=substr` also selects files by path (kept for scripts);
//! `STRATA_LIT_TIMEOUT=secs` sets the per-RUN-line time limit (default 300).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const STRATA: &str = env!("CARGO_BIN_EXE_strata");

/// Directories below `tests/` holding inputs of other harnesses, not lit tests.
const INPUT_DIRS: &[&str] = &["cli", "e2e", "vhlo"];

fn tests_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .canonicalize()
        .expect("tests/ directory")
}

fn llvm_bin() -> PathBuf {
    std::env::var_os("STRATA_LLVM_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-22/bin"))
}

fn collect_mlir(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_mlir(&p, out);
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

/// The RUN commands of a test file (continuation lines joined).
fn run_lines(text: &str) -> Vec<String> {
    let mut cmds = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let Some(pos) = line.find("RUN:") else {
            if let Some(p) = pending.take() {
                cmds.push(p); // a continuation that never came
            }
            continue;
        };
        // Only `//`-comment RUN lines count.
        if !line[..pos].trim_end().ends_with("//") {
            continue;
        }
        let body = line[pos + 4..].trim();
        let mut acc = pending.take().unwrap_or_default();
        if let Some(stripped) = body.strip_suffix('\\') {
            acc.push_str(stripped);
            acc.push(' ');
            pending = Some(acc);
        } else {
            acc.push_str(body);
            cmds.push(acc);
        }
    }
    if let Some(p) = pending {
        cmds.push(p);
    }
    cmds
}

fn shell_quote(p: &Path) -> String {
    let s = p.to_string_lossy();
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Applies the `%` substitutions.
fn substitute_percent(cmd: &str, file: &Path, tmp: &Path) -> String {
    let t = tmp.join("t");
    let mut out = String::new();
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('s') => out.push_str(&shell_quote(file)),
            Some('S') => out.push_str(&shell_quote(file.parent().unwrap())),
            Some('t') => out.push_str(&shell_quote(&t)),
            Some('T') => out.push_str(&shell_quote(tmp)),
            Some('%') => out.push('%'),
            _ => {
                out.push('%');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// Replaces tool names in command position.
fn substitute_tools(cmd: &str) -> String {
    let llvm = llvm_bin();
    let tool = |w: &str| -> Option<String> {
        match w {
            "strata" => Some(shell_quote(Path::new(STRATA))),
            "FileCheck" | "not" | "count" => Some(shell_quote(&llvm.join(w))),
            _ => None,
        }
    };
    let mut out = String::new();
    let mut command_position = true;
    let mut rest = cmd;
    loop {
        let ws = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        if rest.is_empty() {
            break;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        match (command_position, tool(word)) {
            (true, Some(replacement)) => {
                out.push_str(&replacement);
                // `not strata ...`: the word after `not` is a command too.
                command_position = word == "not";
            }
            _ => {
                out.push_str(word);
                // `NAME=value strata ...`: an assignment prefix keeps the
                // command position.
                let assignment = command_position
                    && word.split_once('=').is_some_and(|(name, _)| {
                        !name.is_empty()
                            && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
                    });
                command_position =
                    assignment || matches!(word, "|" | "||" | "&&" | ";" | "!" | "|&");
            }
        }
    }
    out
}

fn run_command(script: &str, cwd: &Path, timeout: Duration) -> Result<(), String> {
    let stdout_path = cwd.join(".lit.stdout");
    let stderr_path = cwd.join(".lit.stderr");
    let mut child = Command::new("bash")
        .args(["-o", "pipefail", "-c", script])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).map_err(|e| e.to_string())?)
        .stderr(std::fs::File::create(&stderr_path).map_err(|e| e.to_string())?)
        .env("STRATA_TEST_DIR", tests_root())
        .spawn()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for bash: {e}")),
        }
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    match status {
        Some(st) if st.success() => Ok(()),
        other => {
            let mut msg = match other {
                Some(st) => format!(
                    "exit status {}",
                    st.code().map_or("signal".to_string(), |c| c.to_string())
                ),
                None => format!("timed out after {}s", timeout.as_secs()),
            };
            for (name, text) in [("stdout", stdout), ("stderr", stderr)] {
                if !text.trim().is_empty() {
                    const LIMIT: usize = 6000;
                    let shown = if text.len() > LIMIT {
                        let mut cut = LIMIT;
                        while !text.is_char_boundary(cut) {
                            cut -= 1;
                        }
                        format!("{}\n[... {} more bytes]", &text[..cut], text.len() - cut)
                    } else {
                        text
                    };
                    let _ = write!(msg, "\n--- {name} ---\n{}", shown.trim_end());
                }
            }
            Err(msg)
        }
    }
}

fn run_test(file: &Path, cmds: &[String], timeout: Duration) -> Option<String> {
    let tmp = match tempfile::Builder::new().prefix("strata-lit-").tempdir() {
        Ok(t) => t,
        Err(e) => return Some(format!("cannot create a temporary directory: {e}")),
    };
    for raw in cmds {
        let cmd = substitute_tools(&substitute_percent(raw, file, tmp.path()));
        if let Err(msg) = run_command(&cmd, tmp.path(), timeout) {
            return Some(format!("RUN: {raw}\n$ {cmd}\n{msg}"));
        }
    }
    None
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let root = tests_root();
    let mut files = Vec::new();
    collect_mlir(&root, &mut files);
    files.sort();
    let filter = std::env::var("STRATA_LIT_FILTER").unwrap_or_default();
    let timeout = Duration::from_secs(
        std::env::var("STRATA_LIT_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(300),
    );
    let mut trials = unit::trials();
    for f in files {
        if !filter.is_empty() && !f.to_string_lossy().contains(&filter) {
            continue;
        }
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => panic!("cannot read {}: {e}", f.display()),
        };
        let cmds = run_lines(&text);
        let relative = f.strip_prefix(&root).unwrap_or(&f).to_path_buf();
        let name = format!("tests/{}", relative.display());
        if cmds.is_empty() {
            let input = relative
                .components()
                .next()
                .is_some_and(|c| INPUT_DIRS.iter().any(|d| c.as_os_str() == *d));
            if !input {
                trials.push(libtest_mimic::Trial::test(name, || {
                    Err("no RUN: line (a lit test must say how it runs)".into())
                }));
            }
            continue;
        }
        trials.push(libtest_mimic::Trial::test(name, move || {
            match run_test(&f, &cmds, timeout) {
                None => Ok(()),
                Some(failure) => Err(failure.into()),
            }
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Checks of the runner itself, run as trials beside the files.
mod unit {
    use super::*;

    pub fn trials() -> Vec<libtest_mimic::Trial> {
        let unit: [(&str, fn()); 4] = [
            ("parses_run_lines", parses_run_lines),
            (
                "substitutes_tools_in_command_position_only",
                substitutes_tools_in_command_position_only,
            ),
            ("substitutes_percent", substitutes_percent),
            (
                "every_pass_has_a_test_named_after_its_flag",
                every_pass_has_a_test_named_after_its_flag,
            ),
        ];
        unit.into_iter()
            .map(|(name, f)| {
                libtest_mimic::Trial::test(format!("lit::unit::{name}"), move || {
                    f();
                    Ok(())
                })
            })
            .collect()
    }

    fn parses_run_lines() {
        let text = "// RUN: strata opt %s | FileCheck %s\n\
                    // CHECK: foo\n\
                    //RUN: not strata \\\n\
                    // RUN:   compile %s -o %t.so\n\
                    %x = \"RUN: not a comment\"\n\
                    func.func @f() // no run here\n";
        assert_eq!(
            run_lines(text),
            vec![
                "strata opt %s | FileCheck %s".to_string(),
                "not strata  compile %s -o %t.so".to_string()
            ]
        );
        assert!(run_lines("// CHECK: x\n").is_empty());
    }

    fn substitutes_tools_in_command_position_only() {
        let s = substitute_tools(
            "strata opt x.mlir --pass strata | FileCheck x.mlir && not strata check y",
        );
        let strata = shell_quote(Path::new(STRATA));
        let fc = shell_quote(&llvm_bin().join("FileCheck"));
        let not = shell_quote(&llvm_bin().join("not"));
        assert_eq!(
            s,
            format!("{strata} opt x.mlir --pass strata | {fc} x.mlir && {not} {strata} check y")
        );
        assert_eq!(substitute_tools("  echo not"), "  echo not");
        assert_eq!(
            substitute_tools("STRATA_NUM_THREADS=3 strata check y | grep a=b strata"),
            format!("STRATA_NUM_THREADS=3 {strata} check y | grep a=b strata")
        );
    }

    fn substitutes_percent() {
        let s = substitute_percent(
            "a %s %S %t.so %T 100%% %d",
            Path::new("/x/y.mlir"),
            Path::new("/tmp/q"),
        );
        assert_eq!(s, "a /x/y.mlir /x /tmp/q/t.so /tmp/q 100% %d");
        assert_eq!(shell_quote(Path::new("/a b/c")), "'/a b/c'");
    }

    /// Every pass `strata opt --list-passes` names has a test file named
    /// after its flag (`tests/**/FLAG.mlir`; a conversion `convert-a-to-b`
    /// has its directory `tests/conversion/a_to_b/`), whose RUN lines use
    /// the flag.
    fn every_pass_has_a_test_named_after_its_flag() {
        let out = Command::new(STRATA)
            .args(["opt", "--list-passes"])
            .output()
            .expect("strata runs");
        let listing = String::from_utf8_lossy(&out.stdout);
        let flags: Vec<&str> = listing
            .lines()
            .filter_map(|l| l.split_whitespace().next()?.strip_prefix("--"))
            .collect();
        assert!(!flags.is_empty(), "no passes listed: {listing}");
        let root = tests_root();
        let mut files = Vec::new();
        collect_mlir(&root, &mut files);
        for flag in flags {
            let conversion_dir = flag
                .strip_prefix("convert-")
                .map(|rest| root.join("conversion").join(rest.replace("-to-", "_to_")));
            let named: Vec<&PathBuf> = files
                .iter()
                .filter(|f| {
                    f.file_stem().is_some_and(|s| s == flag)
                        || conversion_dir.as_ref().is_some_and(|d| f.starts_with(d))
                })
                .collect();
            assert!(!named.is_empty(), "no test file named after --{flag}");
            let uses_flag = named.iter().any(|f| {
                let text = std::fs::read_to_string(f).unwrap_or_default();
                run_lines(&text)
                    .iter()
                    .any(|l| l.contains(&format!("--{flag}")))
            });
            assert!(uses_flag, "the tests named after --{flag} never run it");
        }
    }
}
