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

use strata_ir::Context;

pub use names::*;

/// Ops of the dialect that no StableHLO, MHLO or CHLO op is spelled as:
/// made by Strata's passes (`xla.lu` from LAPACK custom calls,
/// `xla.run_parallel` from Shardy's) or other dialects' ops spelled in
/// their own names (`sdy.mesh`, `interpreter.run_parallel`).
const NO_STABLEHLO_SPELLING: &[&str] = &[LU, RUN_PARALLEL, MESH, MANUAL_COMPUTATION];

/// Adds every `xla` op, its verifier and pretty syntax, and the
/// `stablehlo.*` / `mhlo.*` / `chlo.*` aliases. Each op family names and
/// registers its ops in its file (`ops::<family>`), beside their verifiers;
/// here are the families and the spellings shared by all.
pub fn register(ctx: &mut Context) {
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
    ops::dynamic::register(r);

    // Every op of the dialect has its StableHLO, MHLO and CHLO spellings,
    // but those made by Strata's own passes or by other dialects' ops.
    let spelled: Vec<&'static str> = r
        .op_names()
        .filter(|n| n.starts_with("xla.") && !NO_STABLEHLO_SPELLING.contains(n))
        .collect();
    for name in spelled {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every op a family registers is read in its StableHLO, MHLO and CHLO
    /// spellings, but the ones no such op is spelled as.
    #[test]
    fn every_registered_op_has_its_stablehlo_spellings() {
        let mut ctx = Context::new();
        register(&mut ctx);
        let r = &ctx.registry;
        let names: Vec<&str> = r.op_names().filter(|n| n.starts_with("xla.")).collect();
        assert!(names.len() > 140, "{} ops", names.len());
        for name in names {
            let suffix = &name["xla.".len()..];
            for dialect in ["stablehlo", "mhlo", "chlo"] {
                let spelled = r.resolve(&format!("{dialect}.{suffix}")).map(|d| d.name);
                let expected = (!NO_STABLEHLO_SPELLING.contains(&name)).then_some(name);
                assert_eq!(spelled, expected, "{dialect}.{suffix}");
            }
        }
        assert_eq!(r.resolve("sdy.mesh").map(|d| d.name), Some(MESH));
        assert_eq!(r.resolve("chlo.broadcast_add").map(|d| d.name), Some(ADD));
        assert_eq!(
            r.resolve("stablehlo.dot").map(|d| d.name),
            Some(DOT_GENERAL)
        );
    }
}
