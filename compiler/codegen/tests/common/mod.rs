//! Test helpers: parse + verify a module, compile it to an object, link a
//! shared library with a C stub runtime, and load it.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use strata_codegen::{CodegenOptions, EmitKind, compile, compile_many};
use strata_ir::text::parser::parse_module;
use strata_ir::{Context, OpId};

/// Stand-ins for runtime functions the test modules call.
const STUB_C: &str = r#"
#include <stdint.h>
const char *strata_rt_last_error(void) { return "stub error"; }
void strata_rt_clear_error(void) {}
void strata_rt_set_error(const char *m) { (void)m; }
int32_t strata_rt_cpu_supports(const char *f) { (void)f; return 0; }
int32_t strata_rt_set_num_threads(int32_t n) { (void)n; return 0; }
int32_t strata_rt_register_custom_call(void *t, int64_t n, const char *s, void *f, void *u) {
  (void)t; (void)n; (void)s; (void)f; (void)u; return 1;
}
int64_t strata_rt_arena_mark(void) { return 0; }
void strata_rt_arena_reset(int64_t m) { (void)m; }
int32_t strata_rt_arena_use_scratch(void *s, int64_t n) { (void)s; (void)n; return 0; }
void strata_rt_arena_end_scratch(void) {}
int32_t ext_twice(int32_t x) { return 2 * x; }
double ext_scale(double x, int8_t k) { return x * k; }
"#;

/// The machine running the tests.
pub fn host() -> strata_codegen::ResolvedTarget {
    strata_codegen::host_target().expect("the host is a target")
}

pub fn context() -> Context {
    let mut ctx = Context::new();
    strata_ir::builtin::register(&mut ctx);
    strata_dialect_mem::register(&mut ctx);
    strata_dialect_loop::register(&mut ctx);
    strata_dialect_arith::register(&mut ctx);
    ctx
}

/// Parses and verifies `text`, panicking with rendered diagnostics, and
/// expands its 16-bit float arithmetic as the pipeline does before code
/// generation (`arith-expand-narrow-floats`).
pub fn parse(ctx: &mut Context, text: &str) -> OpId {
    use strata_pass::Pass;
    let m =
        parse_module(ctx, "t.mlir", text).unwrap_or_else(|d| panic!("{}", ctx.sources.render(&d)));
    if let Err(errs) = strata_ir::verify::verify(ctx, m) {
        let msg: String = errs.iter().map(|d| ctx.sources.render(d)).collect();
        panic!("{msg}");
    }
    strata_dialect_arith::transforms::expand_narrow_floats::ArithExpandNarrowFloatsPass
        .run(ctx, m)
        .unwrap_or_else(|d| panic!("{}", ctx.sources.render(&d)));
    m
}

/// Emits `kind` for `text` compiled with prefix `p`.
pub fn emit(text: &str, opt_level: u8, kind: EmitKind) -> String {
    let mut ctx = context();
    let m = parse(&mut ctx, text);
    let opts = CodegenOptions {
        prefix: "p".into(),
        opt_level,
        target: host(),
        bodies: None,
    };
    let out =
        compile(&ctx, m, &opts, kind).unwrap_or_else(|d| panic!("{}", ctx.sources.render(&d)));
    String::from_utf8(out).expect("text output")
}

pub struct Lib {
    pub lib: libloading::Library,
    _dir: tempfile::TempDir,
}

impl Lib {
    /// The exported symbol `name` as a function pointer of type `T`.
    pub fn func<T: Copy>(&self, name: &str) -> T {
        // SAFETY: the caller names a symbol of the given C signature.
        unsafe {
            *self
                .lib
                .get::<T>(name.as_bytes())
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        }
    }
    pub fn has(&self, name: &str) -> bool {
        // SAFETY: only the lookup happens, nothing is called.
        unsafe { self.lib.get::<*const u8>(name.as_bytes()).is_ok() }
    }
}

pub fn link(obj: &[u8]) -> Lib {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = dir.path().join("m.o");
    let c = dir.path().join("stub.c");
    let so = dir.path().join("libm_test.so");
    std::fs::write(&o, obj).expect("write object");
    std::fs::write(&c, STUB_C).expect("write stub");
    run_cc(&[&o, &c], &so);
    // SAFETY: the library is ours and has no initialisers with preconditions.
    let lib = unsafe { libloading::Library::new(&so) }.expect("dlopen");
    Lib { lib, _dir: dir }
}

fn run_cc(inputs: &[&Path], out: &Path) {
    let status = Command::new("cc")
        .arg("-shared")
        .arg("-fPIC")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .arg("-lm")
        .status()
        .expect("run cc");
    assert!(status.success(), "cc failed");
}

/// Compiles `text` at O2 with prefix `p` into a loaded shared library.
pub fn build(text: &str) -> Lib {
    build_opt(text, 2)
}

pub fn build_opt(text: &str, opt_level: u8) -> Lib {
    let mut ctx = context();
    let m = parse(&mut ctx, text);
    let opts = CodegenOptions {
        prefix: "p".into(),
        opt_level,
        target: host(),
        bodies: None,
    };
    let obj = compile(&ctx, m, &opts, EmitKind::Object)
        .unwrap_or_else(|d| panic!("{}", ctx.sources.render(&d)));
    link(&obj)
}

/// Compiles several modules, each with its prefix, into one library.
pub fn build_many(texts: &[(&str, &str)]) -> Lib {
    let mut ctx = context();
    let mods: Vec<(OpId, String)> = texts
        .iter()
        .map(|(t, p)| (parse(&mut ctx, t), p.to_string()))
        .collect();
    let obj = compile_many(&ctx, &mods, 3, EmitKind::Object, &host(), None)
        .unwrap_or_else(|d| panic!("{}", ctx.sources.render(&d)));
    link(&obj)
}

/// `loop.for %i = 0 to n` around `body` (which may use `%i`), with the
/// bound constants named after `n`.
pub fn for_loop(iv: &str, n: usize, body: &str) -> String {
    format!(
        r#"%lb_{iv} = "arith.constant"() {{value = 0 : index}} : () -> index
  %ub_{iv} = "arith.constant"() {{value = {n} : index}} : () -> index
  %st_{iv} = "arith.constant"() {{value = 1 : index}} : () -> index
  "loop.for"(%lb_{iv}, %ub_{iv}, %st_{iv}) ({{
  ^bb0(%{iv}: index):
{body}
    "loop.yield"() : () -> ()
  }}) : (index, index, index) -> ()"#
    )
}
