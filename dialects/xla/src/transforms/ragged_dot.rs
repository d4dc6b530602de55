//! `xla-expand-ragged-dot`: writes `ragged_dot` (a ragged non-contracting
//! lhs dimension, see `ops/ragged.rs`) with ops the lowering has:
//!
//! 1. `full = dot_general(lhs, rhs)`: every row against every group's
//!    matrix (the group dimension stays, among rhs's free dimensions);
//! 2. the group bounds `end[g] = Σ_{h<=g} group_sizes[h]`, `start = end -
//!    group_sizes` (a masked sum over a G x G square);
//! 3. `Σ_g select(start[g] <= row < end[g], full, 0)` over the group
//!    dimension: each row keeps its own group's product.
//!
//! The work is G times a plain dot's; fine for the small group counts this
//! serves, and exact (each output element is one group's dot product plus
//! zeros). Rows past the last group (sizes summing to less than the
//! dimension) are zero, as CHLO's decomposition gives.

use strata_diag::{Diagnostic, Result};
use strata_ir::{Context, OpId};

use super::build::{OpBuilder, ops_named};
use crate::names::*;
use crate::ops::dot::free_dims;
use crate::ops::ragged::ragged_dims;

pub const FLAG: &str = "xla-expand-ragged-dot";

pub struct XlaExpandRaggedDotPass;

impl strata_pass::Pass for XlaExpandRaggedDotPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write ragged_dot as a dot_general against every group, masked by the group of each row"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for op in ops_named(ctx, module, &[RAGGED_DOT]) {
            expand(ctx, op)?;
        }
        Ok(())
    }
}

fn expand(ctx: &mut Context, op: OpId) -> Result<()> {
    let loc = ctx.op(op).loc;
    let d = ragged_dims(ctx, op)
        .ok_or_else(|| Diagnostic::internal(loc, "ragged_dot without dimension numbers"))?;
    let [lhs, rhs, sizes] = ctx.op(op).operands()[..] else {
        return Err(Diagnostic::internal(loc, "ragged_dot takes 3 operands"));
    };
    let result_ty = ctx.value_ty(ctx.op(op).results[0]);
    let elem = ctx.types.elem(result_ty);
    let mut b = OpBuilder::before_op(ctx, op)?;
    let (lhs_shape, rhs_shape) = (b.shape_of(lhs), b.shape_of(rhs));
    let lhs_free = free_dims(lhs_shape.len(), &d.dot.lhs_batch, &d.dot.lhs_contract);
    let rhs_free = free_dims(rhs_shape.len(), &d.dot.rhs_batch, &d.dot.rhs_contract);
    let nb = d.dot.lhs_batch.len();
    let row_at = nb + position(&lhs_free, d.lhs_ragged as usize);
    let group_at = nb + lhs_free.len() + position(&rhs_free, d.rhs_group as usize);

    // 1. Every row against every group.
    let mut full_shape: Vec<i64> = d
        .dot
        .lhs_batch
        .iter()
        .map(|&i| lhs_shape[i as usize])
        .collect();
    full_shape.extend(lhs_free.iter().map(|&i| lhs_shape[i]));
    full_shape.extend(rhs_free.iter().map(|&i| rhs_shape[i]));
    let full_ty = b.tensor(&full_shape, elem);
    let dims = crate::ops::dot::dot_dims_attr(b.ctx, &d.dot);
    let full = b.op(
        DOT_GENERAL,
        vec![lhs, rhs],
        full_ty,
        vec![("dot_dimension_numbers".into(), dims)],
    );

    // 2. Group bounds.
    let groups = full_shape[group_at];
    let int = b.elem_of(sizes);
    let square = [groups, groups];
    let sizes_by_h = b.broadcast(sizes, vec![1], &square);
    let g_index = b.iota(&square, 0, int);
    let h_index = b.iota(&square, 1, int);
    let upto = b.compare("LE", h_index, g_index);
    let zeros = b.splat_bits(0, &square, int);
    let counted = b.select(upto, sizes_by_h, zeros);
    let zero = b.splat_bits(0, &[], int);
    let end = b.reduce_sum(counted, zero, vec![1]);
    let start = b.same_type(SUBTRACT, vec![end, sizes]);

    // 3. Each row keeps its group's product.
    let row = b.iota(&full_shape, row_at as i64, int);
    let start_b = b.broadcast(start, vec![group_at as i64], &full_shape);
    let end_b = b.broadcast(end, vec![group_at as i64], &full_shape);
    let after_start = b.compare("GE", row, start_b);
    let before_end = b.compare("LT", row, end_b);
    let mine = b.same_type(AND, vec![after_start, before_end]);
    let nothing = b.splat_bits(0, &full_shape, elem);
    let kept = b.select(mine, full, nothing);
    let zero = b.splat_bits(0, &[], elem);
    let result = b.reduce_sum(kept, zero, vec![group_at as i64]);
    b.replace(op, &[result]);
    Ok(())
}

fn position(list: &[usize], x: usize) -> usize {
    list.iter().position(|&d| d == x).unwrap_or(0)
}
