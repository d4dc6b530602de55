//! `xla-fold-dot-transpose`: a `dot_general` reading a `transpose` reads the
//! transpose's operand instead, with its dimension numbers mapped through
//! the permutation, so the kernel reads the matrix through strides and no
//! transposed copy is made per call. `h @ E.T` (tied embeddings, `x @ W.T`)
//! is the common case: JAX exports it as `transpose(E)` then a dot.
//!
//! ```text
//! %t = transpose %e, dims = [1, 0] : (tensor<VxD>) -> tensor<DxV>
//! %r = dot_general %h, %t, contracting_dims = [2] x [0]
//!   ==>
//! %r = dot_general %h, %e, contracting_dims = [2] x [1]
//! ```
//!
//! The fold applies when the operand's free dimensions keep their relative
//! order under the permutation (the result's dimension order depends on
//! it); batch and contracting dimensions are listed explicitly, so any
//! permutation of those maps. A transpose left without uses is removed.
//!
//! Not for a large batch of tiny f32/f64 products (`ops::dot::is_tiny_batch`):
//! those stay loop nests, whose innermost loop walks a row of the rhs; read
//! through a transpose that row is strided (attention's `q @ k.T` with
//! 8-wide heads: 2.3 ms against 0.5 ms with the transpose written once,
//! tiled, as the loop lowering writes a transpose a dot reads).

use strata_diag::Result;
use strata_ir::{Context, OpId, builtin};

use super::build::ops_named;
use crate::names::{DOT_GENERAL, TRANSPOSE};
use crate::ops::dot::{dot_dims, dot_dims_attr, free_dims, is_tiny_batch_dot};

pub const FLAG: &str = "xla-fold-dot-transpose";

pub struct XlaFoldDotTransposePass;

impl strata_pass::Pass for XlaFoldDotTransposePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "a dot_general of a transpose reads the transpose's operand through its dimension numbers"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for dot in ops_named(ctx, module, &[DOT_GENERAL]) {
            if is_tiny_batch_dot(ctx, dot) {
                continue;
            }
            for side in [0, 1] {
                fold(ctx, dot, side);
            }
        }
        Ok(())
    }
}

/// Folds the transpose feeding operand `side` (0 lhs, 1 rhs) of `dot`.
fn fold(ctx: &mut Context, dot: OpId, side: usize) {
    let operand = ctx.op(dot).operands()[side];
    let Some(t) = ctx.defining_op(operand) else {
        return;
    };
    if ctx.op(t).name != TRANSPOSE {
        return;
    }
    let Some(perm) = ctx.i64_array(t, "permutation") else {
        return;
    };
    let Some(d) = dot_dims(ctx, dot) else {
        return;
    };
    let (batch, contract) = if side == 0 {
        (&d.lhs_batch, &d.lhs_contract)
    } else {
        (&d.rhs_batch, &d.rhs_contract)
    };
    let map = |dims: &Vec<i64>| -> Option<Vec<i64>> {
        dims.iter()
            .map(|&i| perm.get(usize::try_from(i).ok()?).copied())
            .collect()
    };
    let (Some(batch), Some(contract)) = (map(batch), map(contract)) else {
        return;
    };
    let old_free = if side == 0 {
        free_dims(perm.len(), &d.lhs_batch, &d.lhs_contract)
    } else {
        free_dims(perm.len(), &d.rhs_batch, &d.rhs_contract)
    };
    let mapped: Vec<i64> = old_free.iter().map(|&i| perm[i]).collect();
    if mapped.windows(2).any(|w| w[0] > w[1]) {
        return;
    }
    let mut new = d.clone();
    if side == 0 {
        (new.lhs_batch, new.lhs_contract) = (batch, contract);
    } else {
        (new.rhs_batch, new.rhs_contract) = (batch, contract);
    }
    let source = ctx.op(t).operands()[0];
    let attr = dot_dims_attr(ctx, &new);
    ctx.set_attr(dot, "dot_dimension_numbers", attr);
    ctx.set_operand(dot, side, source);
    remove_if_unused(ctx, t);
}

/// Removes `op` when nothing in its function uses its result any more.
fn remove_if_unused(ctx: &mut Context, op: OpId) {
    let Some(func) = builtin::enclosing_func(ctx, op) else {
        return;
    };
    let result = ctx.op(op).results[0];
    if ctx.users_in_scope(func, result).is_empty() {
        ctx.detach_op(op);
    }
}
