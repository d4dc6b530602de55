//! Strata runtime: the small C-ABI library that is linked statically into every artifact Strata
//! produces (`.so`, `.a`), so that the artifact stands alone.
//!
//! Everything exported here is `extern "C"` with an unmangled `strata_rt_` name. No Rust panic
//! may cross the FFI boundary: every exported function runs its body under [`ffi_guard`], which
//! catches a panic and turns it into a default return value plus a last-error message.
//!
//! The crate deliberately has no dependencies besides `std`: the static archive is linked into
//! every output, so it should stay small and self-contained.
//!
//! Contents:
//! - [`error`]: the thread-local "last error" message behind `P_last_error()`.
//! - [`check`]: the conformance checks (`check.expect_*`) that generated code calls and that
//!   `strata check` reads back through `dlsym`.
//! - [`arena`]: per-thread stacks of function arenas (intermediate buffers, reused across calls).
//! - [`custom_call`]: the registry behind `P_register_custom_call`; a model's custom calls run
//!   only what the host registered.
//! - [`cpu`]: the check that a library runs on a CPU with the features it was compiled for.
//! - [`pool`]: the runtime's thread pool (size from `STRATA_NUM_THREADS` or the CPUs the
//!   process may use; `strata_rt_set_num_threads`).
//! - [`float`]: hand-written f16/bf16 decoding used by the checks.
//! - [`builtins`]: `__truncsfbf2`/`__truncdfbf2`, which LLVM calls and Debian 12's libgcc lacks.

pub mod arena;
pub mod batched;
pub mod builtins;
pub mod check;
pub mod collectives;
pub mod cpu;
pub mod custom_call;
pub mod error;
pub mod fft;
pub mod fft_ducc;
mod fft_real_even;
pub mod float;
pub mod gemm;
pub mod linalg;
pub mod minifloat;
mod mpi;
pub mod narrow_gemm;
pub mod pool;
pub mod profile;
pub mod rng;
#[cfg(target_arch = "x86_64")]
mod sgemm;
#[cfg(test)]
mod signatures;
mod skinny;
pub mod transpose;
pub mod triangular_solve;

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `body`, converting a panic into `on_panic` and a last-error message.
///
/// Used by every exported function so that unwinding never crosses the C ABI.
pub(crate) fn ffi_guard<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(payload) => {
            let msg = if let Some(s) = payload.downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "unknown panic".to_string()
            };
            // Setting the error cannot itself panic (see `error::set_error`).
            error::set_error(&format!("internal runtime error: {msg}"));
            on_panic
        }
    }
}
