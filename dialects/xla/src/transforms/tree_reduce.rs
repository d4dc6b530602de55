//! `xla-tree-reduce`: splits reductions of narrow floats into a tree of
//! windows of 32, as XLA:CPU does.
//!
//! A reducer over f16, bf16 or the f8/f6/f4 formats rounds at every step, so
//! summing thousands of elements one after another stalls (a bf16 running
//! sum stops growing at 256 when the elements are below 1). XLA:CPU reduces
//! such a dimension in windows of 32 elements, then the window results in
//! windows of 32, and so on; this pass rewrites the same tree so results
//! agree with XLA's bit for bit.
//!
//! Input: `xla.reduce` with one input whose element type is a float narrower
//! than 32 bits, reducing at least one dimension longer than 32.
//! Output: a chain of `xla.reduce_window`s (same init value and reducer; a
//! window of 32 along each reduced dimension longer than 32 and of the whole
//! dimension along the other reduced ones; strides equal to the window; a
//! dimension that is not a multiple of 32 is padded on both sides, the
//! smaller half below), repeated until every reduced dimension is at most 32
//! long, feeding the original `xla.reduce`. Other reductions are unchanged.

use strata_diag::{Diagnostic, Result};
use strata_ir::{AttrKind, Context, DenseElements, OpId, TypeKind, Value};

use crate::names::{REDUCE, REDUCE_WINDOW};

pub const FLAG: &str = "xla-tree-reduce";

/// Window length along a long reduced dimension (XLA:CPU's).
const WINDOW: i64 = 32;

pub struct XlaTreeReducePass;

impl strata_pass::Pass for XlaTreeReducePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "reduce narrow floats (f16, bf16, f8) in a tree of windows of 32, as XLA:CPU does"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut reduces = Vec::new();
        ctx.walk_nested(module, &mut |o| {
            if ctx.op(o).name == REDUCE {
                reduces.push(o);
            }
        });
        for op in reduces {
            if let Some(dims) = tree_candidate(ctx, op) {
                split(ctx, op, &dims)?;
            }
        }
        Ok(())
    }
}

/// The reduced dimensions of `op` if it is a narrow-float reduction with a
/// dimension longer than [`WINDOW`].
fn tree_candidate(ctx: &Context, op: OpId) -> Option<Vec<usize>> {
    let o = ctx.op(op);
    if o.operands().len() != 2 || o.regions.len() != 1 {
        return None;
    }
    let ty = ctx.value_ty(o.operands()[0]);
    let narrow = matches!(ctx.types.kind(ctx.types.elem(ty)), TypeKind::Float(k) if k.width() < 32);
    let shape = ctx.types.shape(ty)?;
    let dims: Vec<usize> = ctx
        .i64_array(op, "dimensions")?
        .into_iter()
        .map(|d| d as usize)
        .collect();
    let long = dims
        .iter()
        .any(|&d| shape.get(d).is_some_and(|&n| n > WINDOW));
    // No elements, nothing to round: the reduction is its init value (and
    // a window over an empty dimension would be empty, which no
    // reduce_window has).
    let empty = shape.contains(&0);
    (narrow && long && !empty).then_some(dims)
}

/// Inserts the `xla.reduce_window` levels before `op` and feeds the last
/// one to it.
fn split(ctx: &mut Context, op: OpId, dims: &[usize]) -> Result<()> {
    let loc = ctx.op(op).loc;
    let block = ctx
        .op(op)
        .parent
        .ok_or_else(|| Diagnostic::internal(loc, "reduce outside a block"))?;
    let (init, reducer) = (ctx.op(op).operands()[1], ctx.op(op).regions[0]);
    let mut input: Value = ctx.op(op).operands()[0];
    loop {
        let ty = ctx.value_ty(input);
        let shape = ctx.types.shape(ty).map(<[i64]>::to_vec).unwrap_or_default();
        if !dims.iter().any(|&d| shape[d] > WINDOW) {
            break;
        }
        let rank = shape.len();
        let (mut window, mut padding, mut out) =
            (vec![1; rank], vec![0i64; 2 * rank], shape.clone());
        for &d in dims {
            let n = shape[d];
            if n > WINDOW {
                let windows = (n + WINDOW - 1) / WINDOW;
                let total = windows * WINDOW - n;
                window[d] = WINDOW;
                padding[2 * d] = total / 2;
                padding[2 * d + 1] = total - total / 2;
                out[d] = windows;
            } else {
                window[d] = n;
                out[d] = if n == 0 { 0 } else { 1 };
            }
        }
        let elem = ctx.types.elem(ty);
        let out_ty = ctx.types.tensor_ty(&out, elem);
        let i64t = ctx.types.int_ty(64);
        let array = |ctx: &mut Context, values: Vec<i64>| {
            ctx.attr(AttrKind::DenseArray { elem: i64t, values })
        };
        let pad_ty = ctx.types.tensor_ty(&[rank as i64, 2], i64t);
        let attrs = vec![
            ("window_dimensions".to_string(), array(ctx, window.clone())),
            ("window_strides".to_string(), array(ctx, window)),
            (
                "padding".to_string(),
                ctx.attr(AttrKind::Dense(DenseElements {
                    ty: pad_ty,
                    splat: false,
                    bits: padding.iter().map(|&p| p as u64).collect(),
                })),
            ),
        ];
        let level = ctx.create_op(REDUCE_WINDOW, vec![input, init], &[out_ty], attrs, loc);
        ctx.clone_region_into(reducer, level);
        let pos = ctx.blocks[block]
            .ops
            .iter()
            .position(|&o| o == op)
            .unwrap_or(0);
        ctx.insert_op_at(block, pos, level);
        input = ctx.op(level).results[0];
    }
    ctx.set_operand(op, 0, input);
    Ok(())
}
