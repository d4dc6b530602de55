//! `xla-legalize-broadcast`: makes all implicit broadcasting explicit.
//!
//! Input: binary element-wise ops, `xla.compare` and `xla.complex` with XLA
//! `broadcast_dimensions`, an `auto_broadcast` mode (numpy, pdpd + axis,
//! none), or XLA's implicit scalar / degenerate-dimension broadcasting;
//! `xla.broadcast_to` (numpy or bidirectional).
//! Output: every such op has operands of exactly its result shape, fed by
//! `xla.broadcast_in_dim` (and `xla.reshape` to drop PDPD's ignored
//! trailing size-1 dimensions); the broadcasting attributes are gone;
//! `xla.broadcast_to` is replaced by `xla.broadcast_in_dim`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{Context, OpId, Value};

use crate::names::*;
use crate::ops::elementwise::binary_broadcast;

pub const FLAG: &str = "xla-legalize-broadcast";

pub struct XlaLegalizeBroadcastPass;

impl strata_pass::Pass for XlaLegalizeBroadcastPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "make implicit broadcasting (XLA, numpy, PDPD, bidirectional) explicit with xla.broadcast_in_dim"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut ops = Vec::new();
        ctx.walk_nested(module, &mut |o| ops.push(o));
        for op in ops {
            let name = ctx.op(op).name;
            if BINARY_ELEMENTWISE.contains(&name) || name == COMPARE || name == COMPLEX {
                legalize_binary(ctx, op)?;
            } else if name == BROADCAST_TO {
                legalize_broadcast_to(ctx, op)?;
            }
        }
        Ok(())
    }
}

/// Inserts `new` right before `anchor` in its block.
fn insert_before(ctx: &mut Context, anchor: OpId, new: OpId) -> Result<()> {
    let block = ctx
        .op(anchor)
        .parent
        .ok_or_else(|| Diagnostic::internal(ctx.op(anchor).loc, "op outside a block"))?;
    let pos = ctx.blocks[block]
        .ops
        .iter()
        .position(|&o| o == anchor)
        .unwrap_or(0);
    ctx.insert_op_at(block, pos, new);
    Ok(())
}

/// `xla.broadcast_in_dim` of `v` into `shape`, inserted before `anchor`.
fn broadcast_in_dim(
    ctx: &mut Context,
    anchor: OpId,
    v: Value,
    dims: Vec<i64>,
    shape: &[i64],
) -> Result<Value> {
    let elem = ctx.types.elem(ctx.value_ty(v));
    let t = ctx.types.tensor_ty(shape, elem);
    let i64t = ctx.types.int_ty(64);
    let a = ctx.attr(strata_ir::AttrKind::DenseArray {
        elem: i64t,
        values: dims,
    });
    let loc = ctx.op(anchor).loc;
    let b = ctx.create_op(
        BROADCAST_IN_DIM,
        vec![v],
        &[t],
        vec![("broadcast_dimensions".into(), a)],
        loc,
    );
    insert_before(ctx, anchor, b)?;
    Ok(ctx.op(b).results[0])
}

fn reshape(ctx: &mut Context, anchor: OpId, v: Value, shape: &[i64]) -> Result<Value> {
    let elem = ctx.types.elem(ctx.value_ty(v));
    let t = ctx.types.tensor_ty(shape, elem);
    let loc = ctx.op(anchor).loc;
    let r = ctx.create_op(RESHAPE, vec![v], &[t], vec![], loc);
    insert_before(ctx, anchor, r)?;
    Ok(ctx.op(r).results[0])
}

fn legalize_binary(ctx: &mut Context, op: OpId) -> Result<()> {
    let b = binary_broadcast(ctx, op)?;
    for (i, dims) in [(0, b.lhs_dims.clone()), (1, b.rhs_dims.clone())] {
        let mut v = ctx.op(op).operands()[i];
        let shape = ctx
            .types
            .shape(ctx.value_ty(v))
            .map(|s| s.to_vec())
            .unwrap_or_default();
        let identity =
            dims.iter().enumerate().all(|(j, &d)| d == j as i64) && dims.len() == b.shape.len();
        if shape == b.shape && identity {
            continue;
        }
        if dims.len() < shape.len() {
            v = reshape(ctx, op, v, &shape[..dims.len()])?;
        }
        let nv = broadcast_in_dim(ctx, op, v, dims, &b.shape)?;
        ctx.set_operand(op, i, nv);
    }
    for a in ["broadcast_dimensions", "auto_broadcast", "axis"] {
        ctx.remove_attr(op, a);
    }
    Ok(())
}

fn legalize_broadcast_to(ctx: &mut Context, op: OpId) -> Result<()> {
    let v = ctx.op(op).operands()[0];
    let r = ctx.op(op).results[0];
    let shape = ctx
        .types
        .shape(ctx.value_ty(v))
        .map(|s| s.to_vec())
        .unwrap_or_default();
    let rshape = ctx
        .types
        .shape(ctx.value_ty(r))
        .map(|s| s.to_vec())
        .unwrap_or_default();
    let offset = (rshape.len() - shape.len()) as i64;
    let dims = (0..shape.len() as i64).map(|d| d + offset).collect();
    let nv = broadcast_in_dim(ctx, op, v, dims, &rshape)?;
    let scope = enclosing_isolated(ctx, op);
    ctx.replace_uses_in(scope, r, nv);
    ctx.detach_op(op);
    Ok(())
}

/// The nearest enclosing function (uses of a value cannot escape it).
fn enclosing_isolated(ctx: &Context, op: OpId) -> OpId {
    let mut cur = op;
    while let Some(b) = ctx.op(cur).parent {
        match ctx.block_parent_op(b) {
            Some(p) if ctx.op(p).name == strata_ir::builtin::FUNC => return p,
            Some(p) => cur = p,
            None => break,
        }
    }
    cur
}
