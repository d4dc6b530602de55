//! MLIR / StableHLO text on arbitrary bytes: the parser and the verifier
//! give located errors and never panic; what verifies prints as text that
//! parses again, and goes through the lowering pipeline without a panic or
//! an internal error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The driver rejects non-UTF-8 input before parsing (`read_source`).
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut ctx = strata_pipeline::new_context();
    if let Some(module) = strata_fuzz::parse_mlir(&mut ctx, text) {
        strata_fuzz::expect_round_trip(&ctx, module);
        strata_fuzz::lower(&mut ctx, module);
    }
});
