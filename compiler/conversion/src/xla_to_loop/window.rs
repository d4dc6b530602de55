//! Windowed ops: `xla.reduce_window` (padding, strides, base and window
//! dilations; init values fill the padding) and `xla.select_and_scatter`
//! (max-pool gradients: the select region picks one element per window, the
//! scatter region folds the source into it). `window_position` maps an output
//! position and a window offset to an input index for both, and for
//! `xla.convolution`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::region::{emit_region, fold_into_in_order, stack_accumulators, store_accs};
use super::window_scan;
use crate::builder::Builder;

/// The lowering pattern of `xla.reduce_window`.
pub(super) const REDUCE_WINDOW: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::REDUCE_WINDOW]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| reduce_window(cx, b, op, bufs),
};

/// The lowering pattern of `xla.select_and_scatter`.
pub(super) const SELECT_AND_SCATTER: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::SELECT_AND_SCATTER]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| select_and_scatter(cx, b, op, bufs[0]),
};

/// For every result element, folds its window of the (padded, base-
/// dilated) inputs through the reducer; positions that fall in the
/// padding or between dilated elements contribute the init values.
pub(super) fn reduce_window(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let k = operands.len() / 2;
    let (inputs, inits) = (operands[..k].to_vec(), operands[k..].to_vec());
    let shape = shape_of(b.ctx, inputs[0]);
    let w = strata_dialect_xla::ops::reduce::window(b.ctx, op, shape.len())
        .ok_or_else(|| Diagnostic::internal(b.loc, "reduce_window without a window"))?;
    let out_shape = shape_of(b.ctx, b.ctx.op(op).results[0]);
    let body = b
        .ctx
        .entry_block(op, 0)
        .ok_or_else(|| Diagnostic::internal(b.loc, "reduce_window without body"))?;
    if let Some(scan) = window_scan::scan_of(b.ctx, op, &shape, &w, body) {
        return window_scan::lower_scan(cx, b, op, &scan, &shape, body, bufs[0]);
    }
    // Output elements are independent; each has its own accumulators.
    b.parallel_nest(&out_shape, &mut |b, ridx| {
        let accs = stack_accumulators(b, &inits);
        for (i, &init) in inits.iter().enumerate() {
            let s = cx.element(b, init, &[])?;
            store_scalar(b, s, accs[i], &[]);
        }
        b.loop_nest(&w.dims, &mut |b, widx| {
            // Position in the input, and whether it is a real element.
            let mut pos = Vec::new();
            let mut valid: Option<Value> = None;
            for d in 0..shape.len() {
                let (e, ok) = window_position(
                    b,
                    ridx[d],
                    widx[d],
                    w.strides[d],
                    w.window_dilations[d],
                    w.padding[d].0,
                    w.base_dilations[d],
                    shape[d],
                );
                pos.push(e);
                valid = Some(match valid {
                    Some(v) => b.binary("arith.andi", v, ok),
                    None => ok,
                });
            }
            let mut args = Vec::new();
            for (&x, &init) in inputs.iter().zip(&inits) {
                let pad = cx.element(b, init, &[])?;
                if shape.contains(&0) {
                    // An empty input: every position is padding.
                    args.push(pad);
                    continue;
                }
                let v = cx.element(b, x, &pos)?;
                args.push(match (valid, v, pad) {
                    (Some(c), Scalar::Real(x), Scalar::Real(p)) => Scalar::Real(b.select(c, x, p)),
                    (Some(c), Scalar::Complex(xr, xi), Scalar::Complex(pr, pi)) => {
                        Scalar::Complex(b.select(c, xr, pr), b.select(c, xi, pi))
                    }
                    (_, v, _) => v,
                });
            }
            fold_into_in_order(b, body, &accs, args)
        })?;
        store_accs(b, &accs, bufs, ridx);
        Ok(())
    })
}

/// The result starts at the init value; for every source element, the
/// window's first real element is the candidate, replaced by each later
/// one the select region does not prefer it to; the scatter region then
/// folds the source element into the result at the chosen position.
pub(super) fn select_and_scatter(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let (x, src, init) = (operands[0], operands[1], operands[2]);
    let shape = shape_of(b.ctx, x);
    let sshape = shape_of(b.ctx, src);
    let w = strata_dialect_xla::ops::reduce::window(b.ctx, op, shape.len())
        .ok_or_else(|| Diagnostic::internal(b.loc, "select_and_scatter without a window"))?;
    let (select, scatter) = match (b.ctx.entry_block(op, 0), b.ctx.entry_block(op, 1)) {
        (Some(s), Some(t)) => (s, t),
        _ => {
            return Err(Diagnostic::internal(
                b.loc,
                "select_and_scatter without regions",
            ));
        }
    };
    b.loop_nest(&shape, &mut |b, idx| {
        let v = cx.element(b, init, &[])?;
        store_scalar(b, v, out, idx);
        Ok(())
    })?;
    if shape.contains(&0) {
        return Ok(());
    }
    let it = b.ctx.types.index_ty();
    let i1 = b.ctx.types.int_ty(1);
    let cur_ty = b.ctx.types.memref_ty(&[shape.len() as i64], it);
    let flag_ty = b.ctx.types.memref_ty(&[], i1);
    let cur = b.alloca(cur_ty);
    let has = b.alloca(flag_ty);
    b.loop_nest(&sshape, &mut |b, sidx| {
        let no = b.const_int(0, i1);
        b.store(no, has, &[]);
        // The candidate starts in bounds so that reading it is safe
        // before the first real element is found.
        for d in 0..shape.len() {
            let (dv, zero) = (b.const_index(d as i64), b.const_index(0));
            b.store(zero, cur, &[dv]);
        }
        b.loop_nest(&w.dims, &mut |b, widx| {
            let mut pos = Vec::new();
            let mut valid: Option<Value> = None;
            for d in 0..shape.len() {
                let (e, ok) = window_position(
                    b,
                    sidx[d],
                    widx[d],
                    w.strides[d],
                    1,
                    w.padding[d].0,
                    1,
                    shape[d],
                );
                pos.push(e);
                valid = Some(match valid {
                    Some(v) => b.binary("arith.andi", v, ok),
                    None => ok,
                });
            }
            let valid =
                valid.ok_or_else(|| Diagnostic::internal(b.loc, "0-d select_and_scatter"))?;
            b.if_then(valid, &mut |b| {
                // Take `pos` unless there is a candidate the select
                // region prefers to it.
                let had = b.load(has, &[]);
                let mut cidx = Vec::new();
                for d in 0..shape.len() {
                    let dv = b.const_index(d as i64);
                    cidx.push(b.load(cur, &[dv]));
                }
                let current = cx.element(b, x, &cidx)?;
                let candidate = cx.element(b, x, &pos)?;
                let keep = emit_region(b, select, &[current, candidate])?;
                let keep = keep
                    .first()
                    .ok_or_else(|| Diagnostic::internal(b.loc, "select returns nothing"))?
                    .real();
                let keep = b.binary("arith.andi", had, keep);
                let one = b.const_int(1, i1);
                let take = b.binary("arith.xori", keep, one);
                b.if_then(take, &mut |b| {
                    for (d, &p) in pos.iter().enumerate() {
                        let dv = b.const_index(d as i64);
                        b.store(p, cur, &[dv]);
                    }
                    let yes = b.const_int(1, i1);
                    b.store(yes, has, &[]);
                    Ok(())
                })
            })
        })?;
        let had = b.load(has, &[]);
        b.if_then(had, &mut |b| {
            let mut cidx = Vec::new();
            for d in 0..shape.len() {
                let dv = b.const_index(d as i64);
                cidx.push(b.load(cur, &[dv]));
            }
            let acc = load_scalar(b, out, &cidx);
            let s = cx.element(b, src, sidx)?;
            let new = emit_region(b, scatter, &[acc, s])?;
            let new = new
                .into_iter()
                .next()
                .ok_or_else(|| Diagnostic::internal(b.loc, "scatter returns nothing"))?;
            store_scalar(b, new, out, &cidx);
            Ok(())
        })
    })
}

/// Input index of output position `out` and window offset `win` along one
/// dimension of a windowed op: `q = out·stride + win·window_dilation -
/// pad_low`, a real element when `q ≥ 0`, on the base-dilation grid and
/// below `size`. Returns (the element index clamped into range, valid).
#[allow(clippy::too_many_arguments)]
pub(super) fn window_position(
    b: &mut Builder<'_>,
    out: Value,
    win: Value,
    stride: i64,
    window_dilation: i64,
    pad_low: i64,
    base_dilation: i64,
    size: i64,
) -> (Value, Value) {
    let st = b.const_index(stride);
    let wd = b.const_index(window_dilation);
    let lo = b.const_index(pad_low);
    let a = b.binary("arith.muli", out, st);
    let c = b.binary("arith.muli", win, wd);
    let p = b.binary("arith.addi", a, c);
    let q = b.binary("arith.subi", p, lo);
    let zero = b.const_index(0);
    let nonneg = b.cmpi("sge", q, zero);
    let safe = b.select(nonneg, q, zero);
    let bd = b.const_index(base_dilation);
    let rem = b.binary("arith.remui", safe, bd);
    let on_grid = b.cmpi("eq", rem, zero);
    let e = b.binary("arith.divui", safe, bd);
    let n = b.const_index(size);
    let inside = b.cmpi("slt", e, n);
    let ok = b.binary("arith.andi", nonneg, on_grid);
    let ok = b.binary("arith.andi", ok, inside);
    let last = b.const_index((size - 1).max(0));
    (b.select(inside, e, last), ok)
}
