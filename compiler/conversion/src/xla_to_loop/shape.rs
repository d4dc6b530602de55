//! Ops that build a result from whole operands: `xla.dynamic_update_slice`,
//! `xla.concatenate`, `xla.pad` (negative padding and interior padding).
//! Index-remapping ops (broadcast, reshape, transpose, slice, ...) are fused
//! instead, see `elemental.rs`.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::element::store_scalar;
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use crate::builder::Builder;

/// The lowering pattern of `xla.concatenate`.
pub(super) const CONCATENATE: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::CONCATENATE]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| concatenate(cx, b, op, bufs[0]),
};

/// The lowering pattern of `xla.pad`.
pub(super) const PAD: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::PAD]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| pad(cx, b, op, bufs[0]),
};

/// The lowering pattern of `xla.dynamic_update_slice`.
pub(super) const DYNAMIC_UPDATE_SLICE: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::DYNAMIC_UPDATE_SLICE]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| dynamic_update_slice(cx, b, op, bufs[0]),
};

/// Copies the operand, then writes the update at the clamped start.
pub(super) fn dynamic_update_slice(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let (x, u) = (operands[0], operands[1]);
    let (xs, us) = (shape_of(b.ctx, x), shape_of(b.ctx, u));
    copy_operand_into(cx, b, x, out)?;
    let starts = cx.clamped_starts(b, &operands[2..], &xs, &us)?;
    b.loop_nest(&us, &mut |b, idx| {
        let v = cx.element(b, u, idx)?;
        let oidx: Vec<Value> = idx
            .iter()
            .zip(&starts)
            .map(|(&i, &s)| b.binary("arith.addi", i, s))
            .collect();
        store_scalar(b, v, out, &oidx);
        Ok(())
    })
}

/// Writes `x` into `out` (same shape): a `mem.copy` when `x` is already
/// a buffer (none when it is `out`, a while's state updated in place; a
/// donated argument updated in place, see `xla-plan-donation`, is a
/// copy that codegen skips); else element by element.
pub(super) fn copy_operand_into(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    x: Value,
    out: Value,
) -> Result<()> {
    if let Some(super::Repr::Buffer(buf)) = cx.repr.get(&x).copied()
        && b.ctx.value_ty(buf) == b.ctx.value_ty(out)
    {
        // An update in place of a loop's state needs no copy.
        if buf != out {
            b.insert(strata_dialect_mem::COPY, vec![buf, out], &[], vec![]);
        }
        return Ok(());
    }
    let shape = shape_of(b.ctx, x);
    b.loop_nest(&shape, &mut |b, idx| {
        let v = cx.element(b, x, idx)?;
        store_scalar(b, v, out, idx);
        Ok(())
    })
}

/// Each operand is copied into its slot along the concatenation axis.
pub(super) fn concatenate(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let dim = strata_dialect_xla::ops::shape::concatenate_dimension(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "concatenate without a dimension"))?;
    let mut offset = 0;
    for x in b.ctx.op(op).operands().to_vec() {
        let s = shape_of(b.ctx, x);
        let off = offset;
        // Each operand fills its own slot: its elements in parallel.
        b.parallel_nest(&s, &mut |b, idx| {
            let v = cx.element(b, x, idx)?;
            let mut oidx = idx.to_vec();
            let o = b.const_index(off);
            oidx[dim] = b.binary("arith.addi", idx[dim], o);
            store_scalar(b, v, out, &oidx);
            Ok(())
        })?;
        offset += s[dim];
    }
    Ok(())
}

/// Fills with the padding value, then scatters the operand to
/// `low + i * (interior + 1)`, skipping positions cut by negative padding.
pub(super) fn pad(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let (x, pv) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let xs = shape_of(b.ctx, x);
    let os = shape_of(b.ctx, b.ctx.op(op).results[0]);
    let strata_dialect_xla::ops::shape::Padding {
        low: lo, interior, ..
    } = strata_dialect_xla::ops::shape::padding(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "pad without its padding"))?;
    b.loop_nest(&os, &mut |b, idx| {
        let v = cx.element(b, pv, &[])?;
        store_scalar(b, v, out, idx);
        Ok(())
    })?;
    b.loop_nest(&xs, &mut |b, idx| {
        let mut oidx = Vec::new();
        let mut ok: Option<Value> = None;
        for d in 0..xs.len() {
            let step = b.const_index(interior[d] + 1);
            let l = b.const_index(lo[d]);
            let m = b.binary("arith.muli", idx[d], step);
            let p = b.binary("arith.addi", m, l);
            let zero = b.const_index(0);
            let n = b.const_index(os[d]);
            let ge = b.cmpi("sge", p, zero);
            let lt = b.cmpi("slt", p, n);
            let both = b.binary("arith.andi", ge, lt);
            ok = Some(match ok {
                Some(o) => b.binary("arith.andi", o, both),
                None => both,
            });
            oidx.push(p);
        }
        let v = cx.element(b, x, idx)?;
        match ok {
            Some(c) => b.if_then(c, &mut |b| {
                store_scalar(b, v, out, &oidx);
                Ok(())
            }),
            None => {
                store_scalar(b, v, out, &oidx);
                Ok(())
            }
        }
    })
}
