//! The fixed compilation sequence and the registry of passes by flag.
//! Every dialect's `register` is listed here, explicitly.

use strata_diag::Diagnostic;
use strata_ir::{Context, OpId};
use strata_pass::{Pass, PassManager};

/// A context with every dialect registered.
pub fn new_context() -> Context {
    let mut ctx = Context::new();
    strata_ir::builtin::register(&mut ctx);
    strata_dialect_xla::register(&mut ctx);
    strata_dialect_check::register(&mut ctx);
    strata_dialect_kernel::register(&mut ctx);
    strata_dialect_mem::register(&mut ctx);
    strata_dialect_loop::register(&mut ctx);
    strata_dialect_arith::register(&mut ctx);
    ctx
}

/// Every pass `strata opt` can run, in pipeline order.
pub fn all_passes() -> Vec<Box<dyn Pass>> {
    vec![
        // Runs as the module is read, before verification (see the driver's
        // input); listed for `strata opt` and finds nothing here.
        Box::new(strata_dialect_xla::transforms::refine_shapes::XlaRefineShapesPass),
        Box::new(
            strata_dialect_xla::transforms::jax_calling_convention::XlaJaxCallingConventionPass,
        ),
        Box::new(
            strata_dialect_xla::transforms::manual_computation::XlaExpandManualComputationPass,
        ),
        Box::new(strata_dialect_xla::transforms::composites::XlaRecognizeCompositesPass),
        Box::new(strata_dialect_xla::transforms::inline::XlaInlinePass),
        Box::new(strata_dialect_xla::transforms::fold_branches::XlaFoldBranchesPass),
        Box::new(strata_dialect_xla::transforms::static_dynamic_ops::XlaStaticDynamicOpsPass),
        Box::new(strata_dialect_xla::transforms::quantized::XlaLowerQuantizedPass),
        Box::new(strata_dialect_xla::transforms::lapack_custom_calls::XlaLapackCustomCallsPass),
        Box::new(strata_dialect_xla::transforms::batch_norm::XlaExpandBatchNormPass),
        Box::new(strata_dialect_xla::transforms::ragged_dot::XlaExpandRaggedDotPass),
        Box::new(strata_dialect_xla::transforms::scan::XlaExpandScanPass),
        Box::new(strata_dialect_xla::transforms::rng::XlaExpandRngPass),
        Box::new(strata_dialect_xla::transforms::legalize_broadcast::XlaLegalizeBroadcastPass),
        Box::new(strata_dialect_xla::transforms::reciprocal_divisor::XlaReciprocalDivisorPass),
        Box::new(strata_dialect_xla::transforms::fold_bf16_convert::XlaFoldBf16ConvertPass),
        Box::new(strata_dialect_xla::transforms::tree_reduce::XlaTreeReducePass),
        Box::new(strata_dialect_xla::transforms::split_reduce::XlaSplitReducePass),
        Box::new(strata_dialect_xla::transforms::fold_constant_convert::XlaFoldConstantConvertPass),
        Box::new(strata_dialect_xla::transforms::cse::XlaCsePass),
        Box::new(strata_dialect_xla::transforms::dead_ops::XlaRemoveDeadOpsPass),
        Box::new(strata_dialect_xla::transforms::donation::XlaPlanDonationPass),
        Box::new(strata_dialect_xla::transforms::fold_dot_transpose::XlaFoldDotTransposePass),
        Box::new(strata_dialect_xla::transforms::conv_phases::XlaConvPhasesPass),
        Box::new(strata_conversion::ConvertXlaToKernelPass),
        Box::new(strata_conversion::ConvertXlaToLoopPass),
        Box::new(strata_dialect_loop::transforms::tile::LoopTilePass),
        Box::new(strata_dialect_loop::transforms::update_in_place::LoopUpdateInPlacePass),
        Box::new(strata_dialect_loop::transforms::fuse_parallel::LoopFuseParallelPass),
        Box::new(strata_dialect_loop::transforms::private_buffers::LoopPrivateBuffersPass),
        Box::new(strata_dialect_mem::transforms::reuse_buffers::MemReuseBuffersPass),
        Box::new(strata_dialect_loop::transforms::plan_arena::LoopPlanArenaPass),
        Box::new(strata_dialect_loop::transforms::outline_parallel::LoopOutlineParallelPass),
        Box::new(
            strata_dialect_arith::transforms::expand_narrow_floats::ArithExpandNarrowFloatsPass,
        ),
    ]
}

/// Passes that run only when asked for (`strata opt` runs them by flag):
/// `loop-profile` after the lowering of `--profile`.
pub fn optional_passes() -> Vec<Box<dyn Pass>> {
    vec![Box::new(
        strata_dialect_loop::transforms::profile::LoopProfilePass,
    )]
}

pub fn pass_by_flag(flag: &str) -> Option<Box<dyn Pass>> {
    all_passes()
        .into_iter()
        .chain(optional_passes())
        .find(|p| p.flag() == flag)
}

/// Verifies the parsed module and runs the front-dialect passes only (what
/// runs before `convert-xla-to-loop`): the module `--emit dot` draws.
pub fn front(ctx: &mut Context, module: OpId) -> Result<(), Vec<Diagnostic>> {
    strata_ir::verify::verify(ctx, module)?;
    let mut pm = PassManager::new();
    for p in all_passes() {
        if p.flag() == strata_conversion::xla_to_loop::FLAG {
            break;
        }
        pm.add(p);
    }
    pm.run(ctx, module)
}

/// The passes from the front dialect down to `loop` + `mem` + `arith`.
pub fn lowering_pipeline() -> PassManager {
    let mut pm = PassManager::new();
    for p in all_passes() {
        pm.add(p);
    }
    pm
}

/// Makes the functions a module exports final before the C interface is
/// read from it: JAX's platform index and tokens leave public signatures
/// (`xla-jax-calling-convention`), a multi-device export's per-device
/// functions appear (`xla-expand-manual-computation`). `lower` runs both
/// again, finding nothing.
pub fn entry_points(ctx: &mut Context, module: OpId) -> Result<(), Vec<Diagnostic>> {
    use strata_pass::Pass;
    strata_dialect_xla::transforms::jax_calling_convention::XlaJaxCallingConventionPass
        .run(ctx, module)
        .map_err(|d| vec![d])?;
    strata_dialect_xla::transforms::manual_computation::XlaExpandManualComputationPass
        .run(ctx, module)
        .map_err(|d| vec![d])?;
    strata_ir::verify::verify(ctx, module)
}

/// Verifies the parsed module, then lowers it to the loop level.
pub fn lower(ctx: &mut Context, module: OpId) -> Result<(), Vec<Diagnostic>> {
    lower_timed(ctx, module, strata_pass::PrintAfter::Nothing, false).map(|_| ())
}

/// `lower`, returning the wall time of each pass (in run order); with
/// `profile`, `loop-profile` runs last.
pub fn lower_timed(
    ctx: &mut Context,
    module: OpId,
    print_after: strata_pass::PrintAfter,
    profile: bool,
) -> Result<Vec<(&'static str, std::time::Duration)>, Vec<Diagnostic>> {
    strata_ir::verify::verify(ctx, module)?;
    let mut pm = lowering_pipeline();
    if profile {
        pm.add(Box::new(
            strata_dialect_loop::transforms::profile::LoopProfilePass,
        ));
    }
    pm.print_after = print_after;
    pm.run(ctx, module)?;
    Ok(pm.timings)
}
