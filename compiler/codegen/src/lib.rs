//! strata-codegen: lowers a verified module of builtin (`builtin.module`,
//! `func.*`), `mem`, `loop` and `arith` ops to LLVM IR with inkwell,
//! optimises it for the target CPU and emits LLVM IR text, assembly or an
//! object file.
//!
//! Symbols, for a module compiled with prefix `P`:
//! - every `func.func @f` with a body becomes the internal LLVM function
//!   `P.f` (one `ptr` per memref argument, scalars by value; beyond 1,024
//!   parameters, one `ptr` to a struct of them: see `params.rs`);
//! - every non-private one also gets the exported wrapper
//!   `int32_t P_f(ptr...)` that checks once that the CPU has the target's
//!   features (`strata_rt_cpu_supports`), then calls `P.f` and returns its
//!   status;
//! - `const char *P_last_error(void)` forwards to the runtime's
//!   `strata_rt_last_error`;
//! - `int32_t P_register_custom_call(target, fn, user)` registers the host's
//!   implementation of a custom-call target (see `custom_call.rs`);
//! - a bodiless `func.func private @x` is the external symbol `x` (the
//!   runtime's functions), except the declarations standing for custom-call
//!   targets, which are entries of the library's registry, never symbols.
//!
//! One file per dialect (`func.rs`, `mem.rs`, `loop_.rs`, `arith.rs`), the
//! shared lowering state in `state.rs` over the LLVM module, builder and
//! IR-free instruction helpers in `llvm/`, type mapping in `types.rs`, packed
//! parameters in `params.rs`, and the target machine, optimisation and
//! emission in `target.rs`.

mod arith;
mod batched;
mod custom_call;
mod func;
mod library_api;
mod llvm;
mod loop_;
mod mem;
mod params;
mod pool_entry;
mod state;
mod target;
mod types;

use inkwell::context::Context as LlContext;
use strata_diag::{Diagnostic, Location};
use strata_ir::{Context, OpId};

/// What [`compile`] returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EmitKind {
    /// LLVM IR text (after optimisation).
    LlvmIr,
    /// Assembly text for the host.
    Assembly,
    /// An ELF (or host format) relocatable object.
    Object,
}

#[derive(Clone, Debug)]
pub struct CodegenOptions {
    /// Symbol prefix of the exported functions.
    pub prefix: String,
    /// 0..=3: LLVM's `default<ON>` pipeline and code generation level.
    pub opt_level: u8,
    /// What the code runs on (see [`resolve_target`]).
    pub target: ResolvedTarget,
    /// `None`: this crate lowers everything. `Some(f)`: `f` lowers the
    /// function bodies and constants (`--backend mlir`), this crate the C
    /// wrappers and library functions around them.
    pub bodies: Option<BodyLowering>,
}

/// Lowers a module's function bodies (`P.f`, external linkage, the
/// native signatures) and its `mem.global` constants to an LLVM module in
/// the given context: a second backend for the same loop-level program.
pub type BodyLowering = for<'c> fn(
    &Context,
    &'c LlContext,
    OpId,
    &str,
) -> Result<inkwell::module::Module<'c>, Diagnostic>;

/// Module attribute (`"mpi"`) making `P_replicas_run` run this process as
/// one MPI device (`strata compile --collectives mpi`).
pub const COLLECTIVES_ATTR: &str = "strata.collectives";

/// Module attribute: the library's signature as JSON (the driver writes it
/// from the C interface), returned by `P_signature()`.
pub const SIGNATURE_ATTR: &str = "strata.signature";
pub use batched::BATCHED_ATTR;

pub use loop_::launch_stub_name;
pub use mem::global_bytes;
pub use params::MAX_DIRECT_PARAMS;
pub use target::{DEFAULT_X86_CPU, ResolvedTarget, TargetSpec, resolve as resolve_target};

/// Compiles one module; returns the LLVM module text / asm text / object bytes.
pub fn compile(
    ctx: &Context,
    module: OpId,
    opts: &CodegenOptions,
    kind: EmitKind,
) -> Result<Vec<u8>, Diagnostic> {
    compile_many(
        ctx,
        &[(module, opts.prefix.clone())],
        opts.opt_level,
        kind,
        &opts.target,
        opts.bodies,
    )
}

thread_local! {
    static PHASE_TIMES: std::cell::RefCell<Vec<(&'static str, std::time::Duration)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The wall time of the phases of this thread's last [`compile`] /
/// [`compile_many`]: lowering to LLVM IR, LLVM's optimisation pipeline and
/// code generation (for `strata compile --time-passes`).
pub fn last_phase_times() -> Vec<(&'static str, std::time::Duration)> {
    PHASE_TIMES.with(|t| t.borrow().clone())
}

fn record_phase(name: &'static str, since: std::time::Instant) {
    PHASE_TIMES.with(|t| t.borrow_mut().push((name, since.elapsed())));
}

/// Compiles several modules (each with its own prefix) into one output: the
/// LLVM modules are linked together before optimisation.
pub fn compile_many(
    ctx: &Context,
    modules: &[(OpId, String)],
    opt_level: u8,
    kind: EmitKind,
    target: &ResolvedTarget,
    bodies: Option<BodyLowering>,
) -> Result<Vec<u8>, Diagnostic> {
    PHASE_TIMES.with(|t| t.borrow_mut().clear());
    let start = std::time::Instant::now();
    let tm = target::machine(target, opt_level)?;
    let llcx = LlContext::create();
    let mut upstream = std::time::Duration::ZERO;
    let linked = llcx.create_module("strata");
    for (module, prefix) in modules {
        let link = |m| {
            linked.link_in_module(m).map_err(|e| {
                Diagnostic::internal(
                    ctx.op(*module).loc,
                    format!("cannot link the module with prefix '{prefix}': {e}"),
                )
            })
        };
        let glue_only = bodies.is_some();
        link(func::lower_module(
            ctx, &llcx, *module, prefix, target, glue_only,
        )?)?;
        if let Some(lower_bodies) = bodies {
            let since = std::time::Instant::now();
            link(lower_bodies(ctx, &llcx, *module, prefix)?)?;
            upstream += since.elapsed();
            func::internalize_bodies(ctx, &linked, *module, prefix);
        }
    }
    PHASE_TIMES.with(|t| {
        let mut t = t.borrow_mut();
        t.push(("codegen: lower to LLVM IR", start.elapsed() - upstream));
        if bodies.is_some() {
            t.push(("upstream MLIR: export, verify, lower, translate", upstream));
        }
    });
    target::optimize_and_emit(&tm, &linked, opt_level, kind)
}

/// The version of the LLVM the compiler is linked with, `major.minor.patch`.
pub fn llvm_version() -> String {
    let (major, minor, patch) = inkwell::support::get_llvm_version();
    format!("{major}.{minor}.{patch}")
}

/// The host target, for code the driver loads into its own process.
pub fn host_target() -> Result<ResolvedTarget, Diagnostic> {
    target::resolve(&TargetSpec::host()).map_err(|e| Diagnostic::internal(Location::unknown(), e))
}

/// An internal compiler error without a better location.
pub(crate) fn ice(e: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::internal(Location::unknown(), format!("LLVM lowering failed: {e}"))
}
