//! The `xla` front dialect: XLA's operation semantics on tensors. The parser
//! reads `stablehlo.*` (and `chlo.*`) spellings as their `xla` twins, so
//! JAX exports compile unchanged.

pub mod attrs;
pub mod batch_axes;
pub mod broadcast;
pub mod names;
pub mod ops;
pub mod parse;
pub mod transforms;
pub mod util;

use strata_ir::{Context, OpDef, Traits};

pub use names::*;

/// Adds every `xla` op, its verifier and pretty syntax, and the
/// `stablehlo.*` / `chlo.*` aliases. Each op family registers its ops in
/// its file, beside their verifiers; here are the ops with no verifier of
/// their own (the terminator, custom calls, the dynamic ops that
/// `xla-refine-shapes` makes static, Shardy's) and the aliases.
pub fn register(ctx: &mut Context) {
    let pure = Traits::PURE;
    let r = &mut ctx.registry;
    ops::elementwise::register(r);
    ops::misc::register(r);
    ops::shape::register(r);
    ops::control::register(r);
    ops::gather::register(r);
    ops::dot::register(r);
    ops::reduce::register(r);
    ops::conv::register(r);
    ops::collective::register(r);
    ops::quant::register(r);
    ops::linalg::register(r);
    ops::ragged::register(r);
    ops::scan::register(r);
    ops::norm::register(r);
    ops::decomposition::register(r);
    r.add(OpDef::new(RETURN, Traits::TERMINATOR).parser(parse::parse_return));
    r.add(OpDef::new(CUSTOM_CALL, Traits::NONE).parser(parse::parse_custom_call));
    r.add(OpDef::new(DYNAMIC_BROADCAST_IN_DIM, pure).parser(parse::parse_dynamic_broadcast_in_dim));
    for name in [
        DYNAMIC_RESHAPE,
        DYNAMIC_PAD,
        DYNAMIC_GATHER,
        DYNAMIC_CONV,
        REAL_DYNAMIC_SLICE,
    ] {
        r.add(OpDef::new(name, pure).parser(parse::parse_elementwise));
    }
    r.add(OpDef::new(DYNAMIC_IOTA, pure).parser(parse::parse_dynamic_iota));
    r.alias("interpreter.run_parallel", RUN_PARALLEL);
    r.add(OpDef::new(MESH, Traits::SYMBOL).parser(parse::parse_mesh));
    r.alias("sdy.mesh", MESH);
    r.add(OpDef::new(MANUAL_COMPUTATION, Traits::NONE).parser(parse::parse_manual_computation));
    r.alias("sdy.manual_computation", MANUAL_COMPUTATION);
    r.alias("sdy.return", RETURN);
    r.add_attr_parser("sdy.sharding", parse::parse_sharding_attr);
    r.add_attr_parser("sdy.op_sharding_rule", parse::parse_ignored_attr);
    r.add_attr_parser("sdy.sharding_per_value", parse::parse_ignored_attr);

    for &name in names::ALL {
        let suffix = &name["xla.".len()..];
        r.alias(format!("stablehlo.{suffix}"), name);
        r.alias(format!("mhlo.{suffix}"), name);
        r.alias(format!("chlo.{suffix}"), name);
    }
    // StableHLO spellings that differ from XLA's op names.
    r.alias("stablehlo.dot", DOT_GENERAL);
    // CHLO's broadcasting ops are the same ops; without broadcast_dimensions
    // they broadcast numpy-style.
    for (chlo, name) in names::CHLO_BROADCASTING {
        r.alias_with_fixup(*chlo, name, chlo_default_numpy);
    }
}

/// CHLO ops without `broadcast_dimensions` broadcast numpy-style.
fn chlo_default_numpy(ctx: &mut Context, st: &mut strata_ir::OpState) {
    if st
        .attrs
        .iter()
        .all(|(k, _)| k != "broadcast_dimensions" && k != "auto_broadcast")
    {
        let a = ctx.attr(strata_ir::AttrKind::String("numpy".into()));
        st.add_attr("auto_broadcast", a);
    }
}
