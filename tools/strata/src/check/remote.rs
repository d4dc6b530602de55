//! `strata check --target T --run-with CMD`: the pieces compiled for
//! another target (or run under a tool) and run by a small program of that
//! target, through `CMD` (`qemu-aarch64 -L /usr/aarch64-linux-gnu`).
//!
//! The pieces are linked into one shared library for the target, with the
//! runtime's check interface exported; [`RUNNER_C`], compiled with the
//! target's C compiler, loads it, calls each zero-argument function through
//! its packed entry on zeroed result buffers, and prints one line per
//! failure and a `done` line per call, which the driver turns back into
//! located diagnostics. A call that never reports `done` crashed the runner.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use strata_diag::Diagnostic;
use strata_ir::Context;

use super::Piece;

/// Where and how the pieces run.
pub struct Remote {
    pub target: strata_codegen::TargetSpec,
    /// The command the runner is started under, split on spaces.
    pub run_with: Vec<String>,
}

/// The runner: `runner LIB PLAN`, PLAN one line per call: `prefix entry
/// n_results size...`. Prints `status I CODE MESSAGE`, `failure I ID
/// MESSAGE` (messages with `\n` and `\\` escaped) and `done I`.
const RUNNER_C: &str = r#"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(const char *s) {
  for (; s && *s; s++) {
    if (*s == '\n') fputs("\\n", stdout);
    else if (*s == '\\') fputs("\\\\", stdout);
    else putchar(*s);
  }
  putchar('\n');
}

int main(int argc, char **argv) {
  if (argc != 3) { printf("fatal usage: runner LIB PLAN\n"); return 2; }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) { printf("fatal "); put(dlerror()); return 2; }
  int64_t (*count)(void) = (int64_t (*)(void))dlsym(lib, "strata_rt_check_failure_count");
  int64_t (*id)(int64_t) = (int64_t (*)(int64_t))dlsym(lib, "strata_rt_check_failure_id");
  const char *(*message)(int64_t) =
      (const char *(*)(int64_t))dlsym(lib, "strata_rt_check_failure_message");
  void (*reset)(void) = (void (*)(void))dlsym(lib, "strata_rt_check_reset");
  if (!count || !id || !message || !reset) { printf("fatal no check interface\n"); return 2; }
  FILE *plan = fopen(argv[2], "r");
  if (!plan) { printf("fatal cannot open the plan\n"); return 2; }
  static char line[1 << 16];
  for (int call = 0; fgets(line, sizeof line, plan); call++) {
    char prefix[256], entry[1024], symbol[1400];
    int n = 0, used = 0;
    if (sscanf(line, "%255s %1023s %d%n", prefix, entry, &n, &used) != 3 || n < 0 || n > 4096) {
      printf("fatal bad plan line %d\n", call);
      return 2;
    }
    void **buffers = calloc((size_t)n + 1, sizeof(void *));
    char *rest = line + used;
    for (int i = 0; i < n; i++) {
      long long bytes = strtoll(rest, &rest, 10);
      buffers[i] = calloc((size_t)(bytes / 8 + 1), 8);
    }
    snprintf(symbol, sizeof symbol, "%s_%s_packed", prefix, entry);
    int32_t (*f)(void *const *) = (int32_t (*)(void *const *))dlsym(lib, symbol);
    reset();
    fflush(stdout);
    int32_t status = f ? f(buffers) : -1;
    if (status != 0) {
      snprintf(symbol, sizeof symbol, "%s_last_error", prefix);
      const char *(*last_error)(void) = (const char *(*)(void))dlsym(lib, symbol);
      printf("status %d %d ", call, (int)status);
      put(f ? (last_error ? last_error() : "") : "no such function");
    }
    for (int64_t i = 0; i < count(); i++) {
      printf("failure %d %lld ", call, (long long)id(i));
      put(message(i));
    }
    printf("done %d\n", call);
    fflush(stdout);
    for (int i = 0; i < n; i++) free(buffers[i]);
    free(buffers);
  }
  return 0;
}
"#;

/// Builds the pieces for the target, runs them under the command, and
/// returns whether each passed; diagnostics are printed as they come.
pub fn build_and_run(
    ctx: &Context,
    pieces: &[Piece],
    remote: &Remote,
) -> Result<Vec<bool>, String> {
    let target = strata_codegen::resolve_target(&remote.target)?;
    let host = strata_codegen::host_target()
        .map_err(|d| ctx.sources.render(&d))?
        .triple;
    let toolchain = strata_aot::Toolchain::for_target(&target.triple, &host)?;
    let mods: Vec<_> = pieces
        .iter()
        .map(|p| (p.module, p.prefix.clone()))
        .collect();
    let object = strata_codegen::compile_many(
        ctx,
        &mods,
        2,
        strata_codegen::EmitKind::Object,
        &target,
        None,
    )
    .map_err(|d| ctx.sources.render(&d))?;
    let dir = strata_aot::private_dir::scratch_dir("remote")?;
    let lib = dir.path().join("libstrata_check.so");
    strata_aot::link_shared_for(
        &object,
        &lib,
        strata_aot::Exports::LibraryAndRuntime,
        &toolchain,
    )?;
    let runner = compile_runner(dir.path(), &toolchain)?;
    let mut plan = String::new();
    let mut calls = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        for (entry, sizes) in &p.entries {
            let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
            plan.push_str(&format!(
                "{} {entry} {} {}\n",
                p.prefix,
                sizes.len(),
                sizes.join(" ")
            ));
            calls.push((i, entry.clone()));
        }
    }
    let plan_path = dir.path().join("plan.txt");
    std::fs::write(&plan_path, plan).map_err(|e| format!("cannot write the plan: {e}"))?;
    let (program, args) = remote
        .run_with
        .split_first()
        .ok_or("--run-with needs a command")?;
    let out = Command::new(program)
        .args(args)
        .arg(&runner)
        .arg(&lib)
        .arg(&plan_path)
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    Ok(outcome(ctx, pieces.len(), &calls, &out))
}

fn compile_runner(
    dir: &Path,
    toolchain: &strata_aot::Toolchain,
) -> Result<std::path::PathBuf, String> {
    let source = dir.join("runner.c");
    let runner = dir.join("runner");
    std::fs::write(&source, RUNNER_C).map_err(|e| format!("cannot write the runner: {e}"))?;
    let out = toolchain
        .cc()
        .args(["-O1", "-o"])
        .arg(&runner)
        .arg(&source)
        .arg("-ldl")
        .output()
        .map_err(|e| format!("cannot compile the runner: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "compiling the runner failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(runner)
}

/// Whether each piece passed, from the runner's output: a piece fails on a
/// non-zero status, a check failure, or a call it never finished.
fn outcome(
    ctx: &Context,
    n_pieces: usize,
    calls: &[(usize, String)],
    out: &std::process::Output,
) -> Vec<bool> {
    let mut passed = vec![true; n_pieces];
    let mut done = vec![false; calls.len()];
    let mut notes: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout.lines() {
        let mut words = line.splitn(4, ' ');
        let (kind, call) = (
            words.next(),
            words.next().and_then(|c| c.parse::<usize>().ok()),
        );
        let Some(call) = call.filter(|&c| c < calls.len()) else {
            if kind == Some("fatal") {
                outln!("error: the runner failed: {line}");
                passed.iter_mut().for_each(|p| *p = false);
            }
            continue;
        };
        let (piece, entry) = &calls[call];
        match kind {
            Some("done") => done[call] = true,
            Some("status") => {
                let code = words.next().unwrap_or("?");
                let message = unescape(words.next().unwrap_or(""));
                outln!("error: @{entry} failed at run time (status {code}): {message}");
                passed[*piece] = false;
            }
            Some("failure") => {
                let id = words
                    .next()
                    .and_then(|w| w.parse::<i64>().ok())
                    .unwrap_or(0);
                let message = unescape(words.next().unwrap_or(""));
                let loc = strata_conversion::xla_to_loop::decode_check_id(id);
                let d = Diagnostic::error(loc, format!("check failed in @{entry}: {message}"));
                notes.entry(call).or_default().push(ctx.sources.render(&d));
                passed[*piece] = false;
            }
            _ => {}
        }
    }
    for rendered in notes.values().flatten() {
        out!("{rendered}");
    }
    for (call, (piece, entry)) in calls.iter().enumerate() {
        if !done[call] {
            outln!(
                "error: @{entry} did not finish under the runner ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            );
            passed[*piece] = false;
        }
    }
    passed
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}
