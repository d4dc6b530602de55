//! JAX's serialized exports and StableHLO portable artifacts
//! (`strata_vhlo_import`) on arbitrary bytes: an error or text, never a
//! panic; the text they give parses to located errors or a module that
//! verifies (and lowers) without a panic or an internal error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = if strata_vhlo_import::looks_like_jax_export(data) {
        strata_vhlo_import::jax_export_to_text(data).map(|e| e.module_text)
    } else {
        strata_vhlo_import::portable_artifact_to_text(data)
    };
    let Ok(text) = text else {
        return;
    };
    let mut ctx = strata_pipeline::new_context();
    if let Some(module) = strata_fuzz::parse_mlir(&mut ctx, &text) {
        strata_fuzz::lower(&mut ctx, module);
    }
});
