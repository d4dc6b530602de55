//! `xla.sort`: a stable bottom-up merge sort of every slice along the sort
//! dimension, O(n log n) comparator calls. The operands' values move
//! together: each pass merges runs of the results (which start as the
//! operands' slices) into a scratch buffer per operand, reading and
//! writing memory in order, then copies the scratch back. (An earlier
//! version merged a permutation of indices and read the operands through
//! it: at a million elements every comparison waited on two cache misses.)
//! Ties keep their order (a right element goes first only if the
//! comparator says so), which makes every sort stable, as `is_stable` may
//! require.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::region::emit_region;
use crate::builder::Builder;

/// The lowering pattern of `xla.sort`.
pub(super) const SORT: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::SORT]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| sort(cx, b, op, bufs),
};

pub(super) fn sort(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
    let shape = shape_of(b.ctx, operands[0]);
    let dim = strata_dialect_xla::ops::misc::sort_dimension(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "sort without a dimension"))?;
    let body = b
        .ctx
        .entry_block(op, 0)
        .ok_or_else(|| Diagnostic::internal(b.loc, "sort without comparator"))?;
    let n = shape[dim];
    if shape.contains(&0) {
        return Ok(());
    }
    let it = b.ctx.types.index_ty();
    let slot_ty = b.ctx.types.memref_ty(&[], it);
    let scratch_tys: Vec<_> = bufs
        .iter()
        .map(|&out| {
            let elem = b.ctx.types.elem(b.ctx.value_ty(out));
            b.ctx.types.memref_ty(&[n], elem)
        })
        .collect();
    let mut outer = shape.clone();
    outer[dim] = 1;
    // Slices are sorted independently, each with its own scratch: in
    // parallel when there are several; a single slice merges the pairs
    // of runs of each pass in parallel instead.
    let slices: i64 = outer.iter().product();
    // A slice along an outer dimension is strided (a column of a matrix
    // sorted along axis 0): each merge pass would touch a cache line per
    // element. Such slices are sorted in contiguous copies, written back
    // once at the end (4096 x 256 along axis 0 took 1.3x XLA:CPU's time).
    let contiguous = shape[dim + 1..].iter().all(|&d| d == 1);
    let mut slice_body = |b: &mut Builder<'_>, slice: &[Value]| -> Result<()> {
        let scratch: Vec<Value> = scratch_tys.iter().map(|&t| b.alloc(t)).collect();
        let width = b.alloca(slot_ty);
        let at = |k: Value| {
            let mut v = slice.to_vec();
            v[dim] = k;
            v
        };
        // Where the sort works: the results' slices, or their copies.
        let work: Vec<Value> = if contiguous {
            bufs.to_vec()
        } else {
            scratch_tys.iter().map(|&t| b.alloc(t)).collect()
        };
        let work_at = |k: Value| if contiguous { at(k) } else { vec![k] };
        // The work starts as the operands' slices.
        b.for_range(0, n, &mut |b, k| {
            for (&x, &w) in operands.iter().zip(&work) {
                let v = cx.element(b, x, &at(k))?;
                store_scalar(b, v, w, &work_at(k));
            }
            Ok(())
        })?;
        let one = b.const_index(1);
        b.store(one, width, &[]);
        b.while_loop(
            &mut |b| {
                let w = b.load(width, &[]);
                let len = b.const_index(n);
                Ok(b.cmpi("slt", w, len))
            },
            &mut |b| {
                let w = b.load(width, &[]);
                let len = b.const_index(n);
                let zero = b.const_index(0);
                let one = b.const_index(1);
                let pair = b.binary("arith.addi", w, w);
                let merge = &mut |b: &mut Builder<'_>, lo: Value| -> Result<()> {
                    // Merge runs [lo, mid) and [mid, hi) of the results
                    // into the scratch buffers' [lo, hi).
                    let (left, right) = (b.alloca(slot_ty), b.alloca(slot_ty));
                    let lo_w = b.binary("arith.addi", lo, w);
                    let mid = b.binary("arith.minsi", lo_w, len);
                    let lo_2w = b.binary("arith.addi", lo, pair);
                    let hi = b.binary("arith.minsi", lo_2w, len);
                    b.store(lo, left, &[]);
                    b.store(mid, right, &[]);
                    b.for_values(lo, hi, one, &mut |b, k| {
                        let (i, j) = (b.load(left, &[]), b.load(right, &[]));
                        let left_ok = b.cmpi("slt", i, mid);
                        let right_ok = b.cmpi("slt", j, hi);
                        // Indices kept in the slice even when a run is used up.
                        let ic = b.select(left_ok, i, lo);
                        let jc = b.select(right_ok, j, lo);
                        let mut args = Vec::new();
                        let mut pairs = Vec::new();
                        for &w in &work {
                            let (vi, vj) = (
                                load_scalar(b, w, &work_at(ic)),
                                load_scalar(b, w, &work_at(jc)),
                            );
                            args.extend([vj, vi]);
                            pairs.push((vi, vj));
                        }
                        let right_first = comparator_result(b, body, &args)?;
                        let left_done = b.cmpi("sge", i, mid);
                        let either = b.binary("arith.ori", left_done, right_first);
                        let take_right = b.binary("arith.andi", right_ok, either);
                        for (&(vi, vj), &dst) in pairs.iter().zip(&scratch) {
                            let pick = select_scalar(b, take_right, vj, vi);
                            store_scalar(b, pick, dst, &[k]);
                        }
                        let (i1, j1) = (
                            b.binary("arith.addi", i, one),
                            b.binary("arith.addi", j, one),
                        );
                        let next_i = b.select(take_right, i, i1);
                        let next_j = b.select(take_right, j1, j);
                        b.store(next_i, left, &[]);
                        b.store(next_j, right, &[]);
                        Ok(())
                    })
                };
                if slices == 1 {
                    b.parallel_for_values(zero, len, pair, merge)
                } else {
                    b.for_values(zero, len, pair, merge)
                }?;
                b.for_range(0, n, &mut |b, k| {
                    for (&src, &w) in scratch.iter().zip(&work) {
                        let v = load_scalar(b, src, &[k]);
                        store_scalar(b, v, w, &work_at(k));
                    }
                    Ok(())
                })?;
                b.store(pair, width, &[]);
                Ok(())
            },
        )?;
        if !contiguous {
            b.for_range(0, n, &mut |b, k| {
                for (&w, &out) in work.iter().zip(bufs) {
                    let v = load_scalar(b, w, &[k]);
                    store_scalar(b, v, out, &at(k));
                }
                Ok(())
            })?;
        }
        let copies = if contiguous { &[][..] } else { &work[..] };
        for &s in scratch.iter().chain(copies) {
            b.insert("mem.dealloc", vec![s], &[], vec![]);
        }
        Ok(())
    };
    if slices > 1 {
        b.parallel_nest(&outer, &mut slice_body)
    } else {
        b.loop_nest(&outer, &mut slice_body)
    }
}

/// `on_true` when `c`, else `on_false` (both parts of a complex value).
fn select_scalar(b: &mut Builder<'_>, c: Value, on_true: Scalar, on_false: Scalar) -> Scalar {
    match (on_true, on_false) {
        (Scalar::Complex(tr, ti), Scalar::Complex(fr, fi)) => {
            Scalar::Complex(b.select(c, tr, fr), b.select(c, ti, fi))
        }
        (t, f) => Scalar::Real(b.select(c, t.real(), f.real())),
    }
}

/// The comparator's verdict on `args` (lhs, rhs per operand): true when the
/// lhs elements go first.
fn comparator_result(
    b: &mut Builder<'_>,
    body: strata_ir::BlockId,
    args: &[Scalar],
) -> Result<Value> {
    let result = emit_region(b, body, args)?;
    result
        .first()
        .map(|s| s.real())
        .ok_or_else(|| Diagnostic::internal(b.loc, "comparator returns nothing"))
}
