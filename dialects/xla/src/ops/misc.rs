//! `xla.constant`, `xla.optimization_barrier`.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::util::*;

pub fn verify_constant(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 0, 1)?;
    let d = ctx.dense_attr(op, "value").ok_or_else(|| ctx.error(op, "requires a dense elements attribute 'value'"))?;
    let result = ctx.value_ty(ctx.op(op).results[0]);
    if d.ty != result {
        return Err(ctx.error(op, format!("value of type {} does not match result type {}", ty_str(ctx, d.ty), ty_str(ctx, result))));
    }
    Ok(())
}

pub fn verify_optimization_barrier(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    let ins: Vec<_> = o.operands.iter().map(|&v| ctx.value_ty(v)).collect();
    let outs: Vec<_> = o.results.iter().map(|&v| ctx.value_ty(v)).collect();
    if ins != outs {
        return Err(ctx.error(op, "results must have the operands' types"));
    }
    Ok(())
}
