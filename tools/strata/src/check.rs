//! `strata check`: conformance files, compiled natively and run.

pub(crate) mod remote;

use std::ffi::{CStr, c_char};
use std::path::Path;

use strata_diag::Diagnostic;
use strata_ir::text::{isolate_piece, split_pieces};
use strata_ir::{Context, OpId, builtin};

use crate::abi;
use crate::backend::Backend;
use crate::input::{parse_and_verify, read_source};
use crate::load;

pub(crate) struct Piece {
    pub(crate) module: OpId,
    pub(crate) prefix: String,
    /// Functions to run, with the byte sizes of their result buffers.
    pub(crate) entries: Vec<(String, Vec<usize>)>,
    /// Whether the piece holds any `check.*` op: a piece without one is run
    /// (a crash still fails it) but not counted as passed.
    has_checks: bool,
}

/// Piece counts of one or more files.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    /// Pieces that ran without failing but checked nothing.
    unchecked: usize,
}

pub fn run(
    inputs: &[std::path::PathBuf],
    backend: Backend,
    host: Option<&load::HostCalls>,
    remote: Option<&remote::Remote>,
) -> bool {
    let mut total = Tally::default();
    for path in inputs {
        let t = check_file(path, backend, host, remote);
        total.passed += t.passed;
        total.failed += t.failed;
        total.unchecked += t.unchecked;
    }
    if total.unchecked > 0 {
        outln!(
            "note: {} piece(s) contain no check.* op and are not counted",
            total.unchecked
        );
    }
    outln!("{} passed, {} failed", total.passed, total.failed);
    total.failed == 0
}

fn print_diags(ctx: &Context, diags: &[Diagnostic]) {
    for d in diags {
        out!("{}", ctx.sources.render(d));
    }
}

fn check_file(
    path: &Path,
    backend: Backend,
    host: Option<&load::HostCalls>,
    remote: Option<&remote::Remote>,
) -> Tally {
    let text = match read_source(path) {
        Ok(source) => source.text,
        Err(e) => {
            outln!("{e}");
            return Tally {
                failed: 1,
                ..Tally::default()
            };
        }
    };
    let name = path.display().to_string();
    let mut ctx = strata_pipeline::new_context();
    let mut ready = Vec::new();
    let mut failed = 0;
    for (i, piece) in split_pieces(&text).iter().enumerate() {
        let isolated = isolate_piece(&text, piece);
        if isolated.trim().is_empty() {
            continue;
        }
        match prepare(&mut ctx, &name, &isolated, i) {
            Ok(p) => ready.push(p),
            Err(diags) => {
                print_diags(&ctx, &diags);
                failed += 1;
            }
        }
    }
    if let Some(remote) = remote {
        return run_remotely(&ctx, &ready, remote, failed);
    }
    let (ready, build_failures) = build_isolating_failures(&ctx, ready, backend, host);
    failed += build_failures;
    let mut tally = Tally {
        failed,
        ..Tally::default()
    };
    let Some((loaded, pieces)) = ready else {
        return tally;
    };
    for p in &pieces {
        match (run_piece(&ctx, &loaded.lib, p), p.has_checks) {
            (false, _) => tally.failed += 1,
            (true, true) => tally.passed += 1,
            (true, false) => tally.unchecked += 1,
        }
    }
    tally
}

/// The pieces built for another target and run under `--run-with`.
fn run_remotely(ctx: &Context, pieces: &[Piece], remote: &remote::Remote, failed: usize) -> Tally {
    let mut tally = Tally {
        failed,
        ..Tally::default()
    };
    if pieces.is_empty() {
        return tally;
    }
    match remote::build_and_run(ctx, pieces, remote) {
        Ok(passed) => {
            for (p, ok) in pieces.iter().zip(passed) {
                match (ok, p.has_checks) {
                    (false, _) => tally.failed += 1,
                    (true, true) => tally.passed += 1,
                    (true, false) => tally.unchecked += 1,
                }
            }
        }
        Err(e) => {
            outln!("error: {e}");
            tally.failed += pieces.len();
        }
    }
    tally
}

fn prepare(
    ctx: &mut Context,
    name: &str,
    text: &str,
    index: usize,
) -> Result<Piece, Vec<Diagnostic>> {
    let module = parse_and_verify(ctx, name, text)?;
    let entries = abi::public_functions(ctx, module)
        .into_iter()
        .filter_map(|f| {
            let (ins, outs) = builtin::func_signature(ctx, f)?;
            let name = builtin::func_name(ctx, f)?.to_string();
            let sizes = outs
                .iter()
                .map(|&t| {
                    ctx.types.num_elements(t) as usize * abi::elem_bytes(ctx, ctx.types.elem(t))
                })
                .collect();
            ins.is_empty().then_some((name, sizes))
        })
        .collect();
    let mut has_checks = false;
    ctx.walk_nested(module, &mut |op| {
        has_checks |= ctx.op(op).name.starts_with("check.");
    });
    strata_pipeline::lower(ctx, module)?;
    Ok(Piece {
        module,
        prefix: format!("strata_p{index}"),
        entries,
        has_checks,
    })
}

/// Builds one library from all pieces; if that fails, compiles pieces one
/// by one to find and report the failing ones, then builds the rest.
fn build_isolating_failures(
    ctx: &Context,
    pieces: Vec<Piece>,
    backend: Backend,
    host: Option<&load::HostCalls>,
) -> (Option<(load::Loaded, Vec<Piece>)>, usize) {
    if pieces.is_empty() {
        return (None, 0);
    }
    let mods: Vec<_> = pieces
        .iter()
        .map(|p| (p.module, p.prefix.clone()))
        .collect();
    match load::build_and_load(ctx, &mods, backend, host) {
        Ok(l) => (Some((l, pieces)), 0),
        Err(_) => {
            let mut good = Vec::new();
            let mut failed = 0;
            for p in pieces {
                let compiled = strata_codegen::host_target().and_then(|host| {
                    strata_codegen::compile_many(
                        ctx,
                        &[(p.module, p.prefix.clone())],
                        0,
                        strata_codegen::EmitKind::Object,
                        &host,
                        backend.bodies(),
                    )
                });
                match compiled {
                    Ok(_) => good.push(p),
                    Err(d) => {
                        out!("{}", ctx.sources.render(&d));
                        failed += 1;
                    }
                }
            }
            if good.is_empty() {
                return (None, failed);
            }
            let mods: Vec<_> = good.iter().map(|p| (p.module, p.prefix.clone())).collect();
            match load::build_and_load(ctx, &mods, backend, host) {
                Ok(l) => (Some((l, good)), failed),
                Err(e) => {
                    outln!("error: {e}");
                    (None, failed + good.len())
                }
            }
        }
    }
}

/// Runtime accessors for recorded check failures.
struct Failures<'l> {
    count: libloading::Symbol<'l, unsafe extern "C" fn() -> i64>,
    id: libloading::Symbol<'l, unsafe extern "C" fn(i64) -> i64>,
    message: libloading::Symbol<'l, unsafe extern "C" fn(i64) -> *const c_char>,
    reset: libloading::Symbol<'l, unsafe extern "C" fn()>,
}

fn failures(lib: &libloading::Library) -> Result<Failures<'_>, libloading::Error> {
    // SAFETY: these symbols are the runtime's, with these C signatures.
    unsafe {
        Ok(Failures {
            count: lib.get(b"strata_rt_check_failure_count")?,
            id: lib.get(b"strata_rt_check_failure_id")?,
            message: lib.get(b"strata_rt_check_failure_message")?,
            reset: lib.get(b"strata_rt_check_reset")?,
        })
    }
}

fn run_piece(ctx: &Context, lib: &libloading::Library, p: &Piece) -> bool {
    let f = match failures(lib) {
        Ok(f) => f,
        Err(e) => {
            outln!("error: runtime check interface missing from the library: {e}");
            return false;
        }
    };
    let mut ok = true;
    for (entry, result_sizes) in &p.entries {
        // SAFETY: runtime accessors take no pointers from us.
        unsafe { (f.reset)() };
        let symbol = format!("{}_{entry}", p.prefix);
        // Results go to scratch buffers (8-byte aligned); only checks count.
        let mut scratch: Vec<Vec<u64>> = result_sizes
            .iter()
            .map(|&n| vec![0u64; n.div_ceil(8).max(1)])
            .collect();
        let mut ptrs: Vec<*mut u8> = scratch
            .iter_mut()
            .map(|b| b.as_mut_ptr() as *mut u8)
            .collect();
        match load::call(lib, &symbol, &mut ptrs) {
            Ok(0) => {}
            Ok(code) => {
                outln!(
                    "error: @{entry} failed at run time (status {code}): {}",
                    last_error(lib, &p.prefix)
                );
                ok = false;
            }
            Err(e) => {
                outln!("error: {e}");
                ok = false;
            }
        }
        let n = unsafe { (f.count)() };
        for i in 0..n {
            let id = unsafe { (f.id)(i) };
            let msg_ptr = unsafe { (f.message)(i) };
            let msg = if msg_ptr.is_null() {
                String::new()
            } else {
                // SAFETY: the runtime returns a NUL-terminated string valid until reset.
                unsafe { CStr::from_ptr(msg_ptr) }
                    .to_string_lossy()
                    .into_owned()
            };
            let loc = strata_conversion::xla_to_loop::decode_check_id(id);
            let d = Diagnostic::error(loc, format!("check failed in @{entry}: {msg}"));
            out!("{}", ctx.sources.render(&d));
            ok = false;
        }
    }
    ok
}

/// The library's `P_last_error()` message.
fn last_error(lib: &libloading::Library, prefix: &str) -> String {
    let symbol = format!("{prefix}_last_error");
    // SAFETY: `P_last_error` is generated with this signature and returns a
    // NUL-terminated string owned by the runtime.
    unsafe {
        match lib.get::<unsafe extern "C" fn() -> *const c_char>(symbol.as_bytes()) {
            Ok(f) => {
                let p = f();
                if p.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(p).to_string_lossy().into_owned()
                }
            }
            Err(e) => format!("(no {symbol}: {e})"),
        }
    }
}
