//! `xla-lapack-custom-calls`: the LAPACK custom calls JAX emits on CPU,
//! rewritten into the `xla` ops that compute the same thing, so the `.so`
//! needs no LAPACK.
//!
//! - `lapack_{s,d,c,z}trsm_ffi(a, b)` with `mhlo.backend_config` = {side,
//!   uplo, trans_x, diag} (the LAPACK characters 'L'/'R', 'L'/'U',
//!   'N'/'T'/'C', 'N'/'U' as ui8) → `xla.triangular_solve`. The operand
//!   layouts (column-major for LAPACK) describe memory, not values, so they
//!   do not change the result.
//!
//! - `lapack_{s,d}potrf_ffi(a)` with uplo 'L' → `xla.cholesky` with its
//!   `info` result (the factor in the lower triangle, the rest of a kept).
//!
//! - `lapack_{s,d}getrf_ffi(a)` → `xla.lu` (lu, 1-based pivots, info): with
//!   trsm, what `jnp.linalg.solve` and `inv` call.
//!
//! The other LAPACK targets (geqrf, syevd, gesdd, ...) are left
//! alone and reported as unsupported by the lowering.

use strata_diag::Result;
use strata_ir::{AttrKind, Context, OpId};

use crate::names::{CHOLESKY, CUSTOM_CALL, LU, TRIANGULAR_SOLVE};

pub const FLAG: &str = "xla-lapack-custom-calls";

pub struct XlaLapackCustomCallsPass;

impl strata_pass::Pass for XlaLapackCustomCallsPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "rewrite JAX's LAPACK custom calls (trsm) into xla ops"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut calls = Vec::new();
        ctx.walk_nested(module, &mut |op| {
            let is_trsm = ctx.op(op).name == CUSTOM_CALL
                && ctx.str_attr(op, "call_target_name").is_some_and(|t| {
                    matches!(
                        t,
                        "lapack_strsm_ffi"
                            | "lapack_dtrsm_ffi"
                            | "lapack_ctrsm_ffi"
                            | "lapack_ztrsm_ffi"
                    )
                });
            let is_potrf = ctx.op(op).name == CUSTOM_CALL
                && ctx
                    .str_attr(op, "call_target_name")
                    .is_some_and(|t| matches!(t, "lapack_spotrf_ffi" | "lapack_dpotrf_ffi"));
            let is_getrf = ctx.op(op).name == CUSTOM_CALL
                && ctx
                    .str_attr(op, "call_target_name")
                    .is_some_and(|t| matches!(t, "lapack_sgetrf_ffi" | "lapack_dgetrf_ffi"));
            if is_trsm || is_potrf || is_getrf {
                calls.push(op);
            }
        });
        for op in calls {
            let target = ctx
                .str_attr(op, "call_target_name")
                .unwrap_or("")
                .to_string();
            if target.ends_with("getrf_ffi") {
                let o = ctx.op(op).clone();
                let types: Vec<_> = o.results.iter().map(|&r| ctx.value_ty(r)).collect();
                let lu = ctx.create_op(LU, o.operands.clone(), &types, vec![], o.loc);
                replace_verified(ctx, op, lu)?;
            } else if target.ends_with("potrf_ffi") {
                potrf(ctx, op)?;
            } else {
                trsm(ctx, op)?;
            }
        }
        Ok(())
    }
}

/// Replaces the custom call `op` by the op `new` built from it, once `new`
/// verifies: the call's operands are the user's, so a mismatch (shapes, a
/// mutated option) is the user's error at the call, not invalid IR after
/// the pass (found by fuzzing, FUZZING.md B20).
fn replace_verified(ctx: &mut Context, op: OpId, new: OpId) -> Result<()> {
    let name = ctx.op(new).name;
    if let Some(verify) = ctx.op_def(name).and_then(|d| d.verify) {
        if let Err(e) = verify(ctx, new) {
            let target = ctx.str_attr(op, "call_target_name").unwrap_or("?");
            let message = format!("{} (custom_call @{target} as '{name}')", e.message);
            return Err(strata_diag::Diagnostic::error(ctx.op(op).loc, message));
        }
    }
    ctx.replace_op(op, new);
    Ok(())
}

/// The LAPACK character option `name` of the call's backend config.
fn option(ctx: &Context, op: OpId, name: &str) -> Option<u8> {
    let AttrKind::Dict(fields) = ctx.attr_kind(ctx.attr_of(op, "mhlo.backend_config")?) else {
        return None;
    };
    let (_, v) = fields.iter().find(|(k, _)| k == name)?;
    match ctx.attr_kind(*v) {
        AttrKind::Int { value, .. } => u8::try_from(*value).ok(),
        _ => None,
    }
}

fn trsm(ctx: &mut Context, op: OpId) -> Result<()> {
    let bad = |ctx: &Context, what: &str| {
        ctx.error(
            op,
            format!("has a malformed or missing '{what}' in mhlo.backend_config"),
        )
    };
    let side = option(ctx, op, "side").ok_or_else(|| bad(ctx, "side"))?;
    let uplo = option(ctx, op, "uplo").ok_or_else(|| bad(ctx, "uplo"))?;
    let trans = option(ctx, op, "trans_x").ok_or_else(|| bad(ctx, "trans_x"))?;
    let diag = option(ctx, op, "diag").ok_or_else(|| bad(ctx, "diag"))?;
    if !matches!(side, b'L' | b'R') {
        return Err(bad(ctx, "side"));
    }
    if !matches!(uplo, b'L' | b'U') {
        return Err(bad(ctx, "uplo"));
    }
    if !matches!(diag, b'U' | b'N') {
        return Err(bad(ctx, "diag"));
    }
    let transpose = match trans {
        b'N' => "NO_TRANSPOSE",
        b'T' => "TRANSPOSE",
        b'C' => "ADJOINT",
        _ => return Err(bad(ctx, "trans_x")),
    };
    let o = ctx.op(op).clone();
    if o.operands.len() != 2 || o.results.len() != 1 {
        return Err(ctx.error(op, "(trsm) expects operands (a, b) and one result"));
    }
    let flag = |ctx: &mut Context, v: bool| ctx.attr(AttrKind::Bool(v));
    let attrs = vec![
        ("left_side".to_string(), flag(ctx, side == b'L')),
        ("lower".to_string(), flag(ctx, uplo == b'L')),
        ("unit_diagonal".to_string(), flag(ctx, diag == b'U')),
        (
            "transpose_a".to_string(),
            ctx.attr(AttrKind::Enum {
                dialect: "stablehlo".into(),
                name: "transpose".into(),
                value: transpose.into(),
            }),
        ),
    ];
    let ty = ctx.value_ty(o.results[0]);
    let solve = ctx.create_op(TRIANGULAR_SOLVE, o.operands.clone(), &[ty], attrs, o.loc);
    replace_verified(ctx, op, solve)
}

fn potrf(ctx: &mut Context, op: OpId) -> Result<()> {
    if option(ctx, op, "uplo") != Some(b'L') {
        return Err(strata_diag::Diagnostic::unsupported(
            ctx.op(op).loc,
            "potrf with the upper triangle (uplo 'U') is not supported yet",
        ));
    }
    let o = ctx.op(op).clone();
    if o.operands.len() != 1 || o.results.len() != 2 {
        return Err(ctx.error(op, "(potrf) expects one operand and results (factor, info)"));
    }
    let types: Vec<_> = o.results.iter().map(|&r| ctx.value_ty(r)).collect();
    let chol = ctx.create_op(CHOLESKY, o.operands.clone(), &types, vec![], o.loc);
    replace_verified(ctx, op, chol)
}
