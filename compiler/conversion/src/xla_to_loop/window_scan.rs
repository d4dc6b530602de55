//! `xla.reduce_window` as a running fold. JAX writes `cumsum`, `cumprod`,
//! `cummax` and `cummin` as a reduce_window whose window covers the whole
//! dimension (n), padded by n - 1 below (by n - 1 above when reversed):
//! element i folds every element up to i (from i on). Folded window by
//! window that is n²/2 steps — 64 rows of 4,096 took 0.5 s — where a
//! running fold takes n: each result is the previous one folded with the
//! next element.
//!
//! Padding holds the init value, so result i also folds n - 1 - i copies of
//! it first (in window order, before the first element). The running fold
//! drops them, so it is taken only when that changes nothing
//! (`init_folds_away`: one `add` from ±0, `multiply` from 0 or 1,
//! `maximum`, `minimum`, `and` or `or`), or when the reducer is a monoid
//! written out in several ops (`cumlogsumexp`'s logaddexp from -inf), which
//! the reduction's contract makes init an identity of
//! (`is_written_out_monoid`): 256 rows of 2,048 took 16.8 s window by
//! window, 225 times XLA:CPU's time. Forward,
//! each result folds the same elements in the same order as the window
//! does; reversed, the fold runs from the end, so sums of floats round in
//! the other order (as XLA's own rewrite of long windows into scans
//! reassociates them).

use strata_diag::Result;
use strata_dialect_xla::ops::reduce::{self, Window};
use strata_ir::{BlockId, Context, OpId, Value};

use super::FuncLowering;
use super::element::{load_scalar, store_scalar};
use super::region::emit_region;
use crate::builder::Builder;

/// A reduce_window that is a running fold along `axis`.
pub(super) struct Scan {
    pub axis: usize,
    /// Padding above: result i folds the elements from i on.
    pub reverse: bool,
}

/// The scan `op` (one input, `shape`, window `w`, reducer `body`) is, if it
/// is one whose running fold gives the window's results.
pub(super) fn scan_of(
    ctx: &Context,
    op: OpId,
    shape: &[i64],
    w: &Window,
    body: BlockId,
) -> Option<Scan> {
    let o = ctx.op(op);
    if o.operands().len() != 2 || ctx.types.shape(ctx.value_ty(o.results[0])) != Some(shape) {
        return None;
    }
    let unit = |v: &[i64]| v.iter().all(|&x| x == 1);
    if !unit(&w.strides) || !unit(&w.base_dilations) || !unit(&w.window_dilations) {
        return None;
    }
    let mut scan = None;
    for (d, &n) in shape.iter().enumerate() {
        match (w.dims[d], w.padding[d]) {
            (1, (0, 0)) => {}
            (wd, (lo, 0)) if wd == n && lo == n - 1 && n > 1 && scan.is_none() => {
                scan = Some(Scan {
                    axis: d,
                    reverse: false,
                })
            }
            (wd, (0, hi)) if wd == n && hi == n - 1 && n > 1 && scan.is_none() => {
                scan = Some(Scan {
                    axis: d,
                    reverse: true,
                })
            }
            _ => return None,
        }
    }
    let scan = scan?;
    let init = o.operands()[1];
    let folds =
        reduce::init_folds_away(ctx, body, init) || reduce::is_written_out_monoid(ctx, body, init);
    folds.then_some(scan)
}

/// Result i = result i-1 (i+1 reversed) folded with element i of the input
/// (of `shape`), the first one the init folded with its element: parallel
/// over the dimensions before the axis, the ones after it innermost
/// (contiguous, so the fold of a row of them vectorizes).
pub(super) fn lower_scan(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    scan: &Scan,
    shape: &[i64],
    body: BlockId,
    out: Value,
) -> Result<()> {
    let (input, init) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let (axis, n) = (scan.axis, shape[scan.axis]);
    let (outer, inner) = (shape[..axis].to_vec(), shape[axis + 1..].to_vec());
    b.parallel_nest(&outer, &mut |b, o| {
        let at = |i: Value, inner_idx: &[Value]| {
            let mut idx = o.to_vec();
            idx.push(i);
            idx.extend_from_slice(inner_idx);
            idx
        };
        let first = b.const_index(if scan.reverse { n - 1 } else { 0 });
        b.loop_nest(&inner, &mut |b, j| {
            let idx = at(first, j);
            let x = cx.element(b, input, &idx)?;
            let start = cx.element(b, init, &[])?;
            let r = emit_region(b, body, &[start, x])?;
            store_scalar(b, r[0], out, &idx);
            Ok(())
        })?;
        b.for_range(1, n, &mut |b, t| {
            // Position i and the one folded before it.
            let (i, prev) = if scan.reverse {
                let last = b.const_index(n - 1);
                let i = b.binary("arith.subi", last, t);
                let one = b.const_index(1);
                (i, b.binary("arith.addi", i, one))
            } else {
                let one = b.const_index(1);
                (t, b.binary("arith.subi", t, one))
            };
            b.loop_nest(&inner, &mut |b, j| {
                let idx = at(i, j);
                let before = load_scalar(b, out, &at(prev, j));
                let x = cx.element(b, input, &idx)?;
                let r = emit_region(b, body, &[before, x])?;
                store_scalar(b, r[0], out, &idx);
                Ok(())
            })
        })
    })
}
