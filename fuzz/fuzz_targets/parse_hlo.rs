//! XLA HLO text (`strata_hlo_import::import_module`) on arbitrary
//! bytes: located errors, no panic; what imports and verifies lowers
//! without a panic or an internal error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut ctx = strata_pipeline::new_context();
    if let Some(module) = strata_fuzz::parse_hlo(&mut ctx, text) {
        strata_fuzz::lower(&mut ctx, module);
    }
});
