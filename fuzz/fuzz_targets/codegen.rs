//! Structure-aware, one step further than `lower`: the lowered function
//! goes through LLVM code generation to an object file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_fuzz::generate::Program;

fuzz_target!(|program: Program| {
    let mut ctx = strata_pipeline::new_context();
    let module = strata_fuzz::expect_valid(&mut ctx, &program.text);
    if strata_fuzz::lower(&mut ctx, module) {
        strata_fuzz::codegen(&ctx, module);
    }
});
