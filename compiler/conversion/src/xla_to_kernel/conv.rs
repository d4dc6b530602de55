//! `xla.convolution` with a 1x1 window (no stride, padding, dilation,
//! reversal or groups) is a plain product: every output position is the
//! input's features at that position times the kernel, `out[p, o] =
//! Σ_c x[p, c] · w[c, o]`. It becomes one `kernel.gemm` on strided views
//! in any layout (NHWC: rows of the input; NCHW: batches of columns),
//! without the patch matrix the general convolution builds.
//!
//! Larger convolutions that im2col + GEMM computes become `kernel.conv`
//! (`select_im2col`), with the column order that lets the GEMM read the
//! kernel in place when one does; grouped ones too (a GEMM batched over
//! the groups), 1x1 included.
//!
//! M is the positions (batch and spatial dimensions): the innermost run of
//! them that merges in both the input and the result, the others batch
//! dimensions that leave the kernel in place; K the input features; N the
//! output features. im2col computes f32 and f64: a larger convolution of
//! f16 or bf16 becomes one in f32 between converts (accumulated in f32,
//! rounded once, as XLA:CPU computes it), so that it takes that path too.

use strata_diag::Result;
use strata_dialect_xla::ops::conv::conv;
use strata_ir::{Context, OpId, Type};

use super::gemm::{
    Compute, Dim, descriptor, float_kind, innermost_run, replace_with_gemm, strides,
};

/// Rewrites `op` (a `convolution`) into a `kernel.gemm` when it is 1x1.
pub(crate) fn select(ctx: &mut Context, op: OpId) -> Result<()> {
    let [x, w] = ctx.op(op).operands()[..] else {
        return Ok(());
    };
    let result = ctx.op(op).results[0];
    let types = [x, w, result].map(|v| ctx.value_ty(v));
    let Some(kinds) = types
        .iter()
        .map(|&t| float_kind(ctx, t))
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(());
    };
    let Some(c) = conv(ctx, op) else {
        return Ok(());
    };
    let shape = |t: Type| ctx.types.shape(t).unwrap_or(&[]).to_vec();
    let (xs, ws, os) = (shape(types[0]), shape(types[1]), shape(types[2]));
    let pointwise = c.kernel_spatial.iter().all(|&d| ws[d] == 1)
        && c.strides.iter().all(|&s| s == 1)
        && c.padding.iter().all(|&p| p == (0, 0))
        && c.lhs_dilation.iter().all(|&d| d == 1)
        && c.rhs_dilation.iter().all(|&d| d == 1)
        && c.reversal.iter().all(|&r| !r)
        && c.feature_groups == 1
        && c.batch_groups == 1;
    if !pointwise {
        return match widen_narrow(ctx, op, &kinds)? {
            Some(wide) => {
                keep_bf16_operands(ctx, wide, &kinds);
                select_im2col(ctx, wide)
            }
            None => select_im2col(ctx, op),
        };
    }
    let (xst, wst, ost) = (strides(&xs), strides(&ws), strides(&os));
    // Positions: batch then spatial dimensions, outermost (in the input)
    // first, so that runs adjacent in memory merge.
    let mut positions: Vec<Dim> = std::iter::once((c.input_batch, c.output_batch))
        .chain(
            c.input_spatial
                .iter()
                .copied()
                .zip(c.output_spatial.iter().copied()),
        )
        .map(|(i, o)| Dim {
            size: xs[i],
            lhs: xst[i],
            rhs: 0,
            out: ost[o],
        })
        .filter(|d| d.size != 1)
        .collect();
    positions.sort_by_key(|d| std::cmp::Reverse(d.lhs));
    let (m, batch) = innermost_run(&positions);
    let unit = Dim {
        size: 1,
        lhs: 0,
        rhs: 0,
        out: 0,
    };
    let k = Dim {
        size: xs[c.input_feature],
        lhs: xst[c.input_feature],
        rhs: wst[c.kernel_input_feature],
        out: 0,
    };
    let n = Dim {
        size: ws[c.kernel_output_feature],
        lhs: 0,
        rhs: wst[c.kernel_output_feature],
        out: ost[c.output_feature],
    };
    let Some(desc) = descriptor(&batch, m.unwrap_or(unit), n, k) else {
        return select_im2col(ctx, op);
    };
    replace_with_gemm(ctx, op, Some(x), Some(w), Compute::of_floats(&kinds), &desc)
}

/// A larger convolution that im2col + GEMM computes becomes a
/// `kernel.conv` in place (same operands and result), with the order of
/// its K columns and whether the GEMM reads the kernel in place
/// (`strata_dialect_kernel::conv`); the rest stays a convolution for the
/// direct loop nest.
fn select_im2col(ctx: &mut Context, op: OpId) -> Result<()> {
    let Some(plan) = strata_dialect_kernel::conv::gemm_plan(ctx, op) else {
        return Ok(());
    };
    let attrs = strata_dialect_kernel::conv::attrs(ctx, &plan);
    let o = ctx.op_mut(op);
    o.name = strata_dialect_kernel::CONV;
    o.attrs.extend(attrs);
    Ok(())
}

/// Gives `conv` (an f32 convolution of converted operands, from
/// [`widen_narrow`]) back its bf16 operands when both were bf16 and the
/// result bf16 or f32, and im2col + GEMM computes it: the patches stay
/// bf16 and the bf16 GEMM sums in f32 (the converts go).
fn keep_bf16_operands(ctx: &mut Context, conv: OpId, kinds: &[strata_ir::FloatKind]) {
    if Compute::of_floats(kinds) != Compute::Bf16
        || strata_dialect_kernel::conv::gemm_plan(ctx, conv).is_none()
    {
        return;
    }
    let converts: Vec<OpId> = ctx.op(conv).operands()[..2]
        .iter()
        .filter_map(|&v| ctx.defining_op(v))
        .collect();
    let narrow: Vec<strata_ir::Value> = converts.iter().map(|&c| ctx.op(c).operands()[0]).collect();
    if converts.len() != 2
        || narrow
            .iter()
            .any(|&v| float_kind(ctx, ctx.value_ty(v)).is_none())
    {
        return;
    }
    ctx.set_operand(conv, 0, narrow[0]);
    ctx.set_operand(conv, 1, narrow[1]);
    let Some(func) = strata_ir::builtin::enclosing_func(ctx, conv) else {
        return;
    };
    for c in converts {
        let v = ctx.op(c).results[0];
        if ctx.users_in_scope(func, v).is_empty() {
            ctx.detach_op(c);
        }
    }
}

/// A convolution with f16/bf16 operands or result as the same convolution
/// in f32, its operands converted before and its result after; returns the
/// f32 convolution.
fn widen_narrow(
    ctx: &mut Context,
    op: OpId,
    kinds: &[strata_ir::FloatKind],
) -> Result<Option<OpId>> {
    use strata_dialect_xla::names::{CONVERT, CONVOLUTION};
    use strata_ir::FloatKind;
    let narrow = |k: &FloatKind| matches!(k, FloatKind::F16 | FloatKind::BF16);
    if !kinds.iter().any(narrow) || kinds.contains(&FloatKind::F64) {
        return Ok(None);
    }
    let f32t = ctx.types.float_ty(FloatKind::F32);
    let attrs = ctx.op(op).attrs.clone();
    let operands = ctx.op(op).operands().to_vec();
    let result = ctx.op(op).results[0];
    let mut b = strata_dialect_xla::transforms::build::OpBuilder::before_op(ctx, op)?;
    let mut wide = Vec::new();
    for v in operands {
        if b.elem_of(v) == f32t {
            wide.push(v);
            continue;
        }
        let shape = b.shape_of(v);
        let ty = b.tensor(&shape, f32t);
        wide.push(b.op(CONVERT, vec![v], ty, vec![]));
    }
    let shape = b.shape_of(result);
    let ty = b.tensor(&shape, f32t);
    let mut out = b.op(CONVOLUTION, wide, ty, attrs);
    let conv = b.ctx.defining_op(out);
    if b.elem_of(result) != f32t {
        let rt = b.ctx.value_ty(result);
        out = b.op(CONVERT, vec![out], rt, vec![]);
    }
    b.replace(op, &[out]);
    Ok(conv)
}
