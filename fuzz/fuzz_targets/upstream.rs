//! Structure-aware, beside `codegen`: the lowered function exported as
//! upstream MLIR (`--backend mlir`, `strata opt --export-upstream`) and
//! checked by MLIR's verifier through melior.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_fuzz::generate::Program;

fuzz_target!(|program: Program| {
    let mut ctx = strata_pipeline::new_context();
    let module = strata_fuzz::expect_valid(&mut ctx, &program.text);
    if strata_fuzz::lower(&mut ctx, module) {
        strata_fuzz::export_upstream(&ctx, module);
    }
});

unsafe extern "C" {
    fn LLVMFuzzerRunDriver(
        argc: *mut std::ffi::c_int,
        argv: *mut *mut *mut std::ffi::c_char,
        callback: unsafe extern "C" fn(*const u8, usize) -> std::ffi::c_int,
    ) -> std::ffi::c_int;
    fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> std::ffi::c_int;
}

/// libFuzzer's entry point, defined here: MLIR's static libraries (linked
/// whole by mlir-sys) carry `mlir-opt`'s `main`, which the linker would
/// otherwise take before libFuzzer's and which parses libFuzzer's flags as
/// MLIR options.
#[unsafe(no_mangle)]
pub extern "C" fn main(
    mut argc: std::ffi::c_int,
    mut argv: *mut *mut std::ffi::c_char,
) -> std::ffi::c_int {
    // SAFETY: argc/argv are the process's; the callback is the target.
    unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, LLVMFuzzerTestOneInput) }
}
