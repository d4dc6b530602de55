//! Structure-aware: a generated well-typed StableHLO function must parse,
//! verify and lower (`strata_pipeline::lower`) without any error other than
//! "unsupported", and never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_fuzz::generate::Program;

fuzz_target!(|program: Program| {
    let mut ctx = strata_pipeline::new_context();
    let module = strata_fuzz::expect_valid(&mut ctx, &program.text);
    strata_fuzz::lower(&mut ctx, module);
});
