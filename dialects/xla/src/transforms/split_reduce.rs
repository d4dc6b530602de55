//! `xla-split-reduce`: a reduction of the innermost dimension that keeps a
//! dimension lying between reduced ones becomes two reductions: first over
//! the trailing run of reduced dimensions, then over the others.
//!
//! GroupNorm reduces (N, H, W, G, C/G) over (H, W, C/G), keeping G. Lowered
//! as one reduction, each of the few results walks the whole input with
//! strides, on one thread (1 ms for 64x64x64 floats). Split, the first
//! reduction folds contiguous rows (C/G), one result per row, in parallel;
//! the second keeps its innermost dimension (G) and reads its input once in
//! memory order.
//!
//! The split folds in another order and starts each partial result from
//! the init value, so it is taken only where that cannot change the result
//! beyond reassociation, which float reductions already allow (f32, f64 and
//! integers; narrow floats keep XLA's order, see `xla-tree-reduce`): one
//! input, and a reducer and init that `init_folds_away` accepts.

use strata_diag::Result;
use strata_ir::{Context, OpId, TypeKind};

use super::build::{OpBuilder, ops_named};
use crate::names::REDUCE;
use crate::ops::reduce::init_folds_away;

pub const FLAG: &str = "xla-split-reduce";

pub struct XlaSplitReducePass;

impl strata_pass::Pass for XlaSplitReducePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "reduce the trailing reduced dimensions first when a kept dimension lies between reduced ones"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for op in ops_named(ctx, module, &[REDUCE]) {
            if let Some(trailing) = trailing_run(ctx, op) {
                split(ctx, op, trailing)?;
            }
        }
        Ok(())
    }
}

/// The first dimension of the trailing run of reduced dimensions, when
/// `op` should be split there: other reduced dimensions lie before the
/// kept one in front of the run.
fn trailing_run(ctx: &Context, op: OpId) -> Option<usize> {
    let o = ctx.op(op);
    if o.operands().len() != 2 || o.regions.len() != 1 {
        return None;
    }
    let ty = ctx.value_ty(o.operands()[0]);
    let rank = ctx.types.shape(ty)?.len();
    let wide_enough = match ctx.types.kind(ctx.types.elem(ty)) {
        TypeKind::Float(k) => k.width() >= 32,
        TypeKind::Int { .. } => true,
        _ => false,
    };
    let dims = ctx.i64_array(op, "dimensions")?;
    let reduced = |d: usize| dims.contains(&(d as i64));
    if !wide_enough || rank == 0 || !reduced(rank - 1) {
        return None;
    }
    let start = (0..rank).rev().take_while(|&d| reduced(d)).last()?;
    if start == 0 || !(0..start - 1).any(reduced) {
        return None;
    }
    let body = *ctx.regions[o.regions[0]].blocks.first()?;
    init_folds_away(ctx, body, o.operands()[1]).then_some(start)
}

/// `reduce(x, dims)` → `reduce(reduce(x, start..rank), dims before start)`.
fn split(ctx: &mut Context, op: OpId, start: usize) -> Result<()> {
    let (input, init, reducer) = (
        ctx.op(op).operands()[0],
        ctx.op(op).operands()[1],
        ctx.op(op).regions[0],
    );
    let dims = ctx.i64_array(op, "dimensions").unwrap_or_default();
    let mut b = OpBuilder::before_op(ctx, op)?;
    let shape = b.shape_of(input);
    let rows_ty = b.tensor(&shape[..start], b.elem_of(input));
    let trailing = b.i64_array((start as i64..shape.len() as i64).collect());
    let rows = b.op(
        REDUCE,
        vec![input, init],
        rows_ty,
        vec![("dimensions".to_string(), trailing)],
    );
    let rest = b.i64_array(dims.into_iter().filter(|&d| d < start as i64).collect());
    if let Some(r) = ctx.defining_op(rows) {
        ctx.clone_region_into(reducer, r);
    }
    ctx.set_operand(op, 0, rows);
    ctx.set_attr(op, "dimensions", rest);
    Ok(())
}
