//! `xla.sort`: a stable bottom-up merge sort of every slice along the sort
//! dimension, O(n log n) comparator calls. The slice is sorted as a
//! permutation (indices into the operands, merged run by run through a
//! scratch buffer); the comparator region reads the operands at those
//! indices, and the results are gathered through the final permutation, so
//! any number of operands move together. Ties keep their order (a right
//! element goes first only if the comparator says so), which makes every
//! sort stable, as `is_stable` may require.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::elemental::store_scalar;
use super::materialize::shape_of;
use super::region::emit_region;
use super::scalar::Scalar;
use crate::builder::Builder;

impl FuncLowering<'_> {
    pub(super) fn sort(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let shape = shape_of(b.ctx, operands[0]);
        let rank = shape.len() as i64;
        let dim = b.ctx.int_attr(op, "dimension").unwrap_or(-1) as i64;
        let dim = if dim < 0 { dim + rank } else { dim } as usize;
        let body = b
            .ctx
            .entry_block(op, 0)
            .ok_or_else(|| Diagnostic::internal(b.loc, "sort without comparator"))?;
        let n = shape[dim];
        if shape.contains(&0) {
            return Ok(());
        }
        let it = b.ctx.index_ty();
        let (perm_ty, slot_ty) = (b.ctx.memref_ty(&[n], it), b.ctx.memref_ty(&[], it));
        let mut outer = shape.clone();
        outer[dim] = 1;
        // Slices are sorted independently, each with its own scratch: in
        // parallel when there are several; a single slice merges the pairs
        // of runs of each pass in parallel instead.
        let slices: i64 = outer.iter().product();
        let mut slice_body = |b: &mut Builder<'_>, slice: &[Value]| -> Result<()> {
            let (perm, merged) = (b.alloc(perm_ty), b.alloc(perm_ty));
            let width = b.alloca(slot_ty);
            let at = |k: Value| {
                let mut v = slice.to_vec();
                v[dim] = k;
                v
            };
            b.for_range(0, n, &mut |b, k| {
                b.store(k, perm, &[k]);
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
                        // Merge perm[lo..mid) and perm[mid..hi) into merged[lo..hi).
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
                            let (pi, pj) = (b.load(perm, &[ic]), b.load(perm, &[jc]));
                            let mut args = Vec::new();
                            for &x in &operands {
                                args.push(self.element(b, x, &at(pj))?);
                                args.push(self.element(b, x, &at(pi))?);
                            }
                            let right_first = comparator_result(b, body, &args)?;
                            let left_done = b.cmpi("sge", i, mid);
                            let either = b.binary("arith.ori", left_done, right_first);
                            let take_right = b.binary("arith.andi", right_ok, either);
                            let pick = b.select(take_right, pj, pi);
                            b.store(pick, merged, &[k]);
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
                    b.insert("mem.copy", vec![merged, perm], &[], vec![]);
                    b.store(pair, width, &[]);
                    Ok(())
                },
            )?;
            b.for_range(0, n, &mut |b, k| {
                let from = b.load(perm, &[k]);
                for (&x, &out) in operands.iter().zip(bufs) {
                    let v = self.element(b, x, &at(from))?;
                    store_scalar(b, v, out, &at(k));
                }
                Ok(())
            })?;
            b.insert("mem.dealloc", vec![perm], &[], vec![]);
            b.insert("mem.dealloc", vec![merged], &[], vec![]);
            Ok(())
        };
        if slices > 1 {
            b.parallel_nest(&outer, &mut slice_body)
        } else {
            b.loop_nest(&outer, &mut slice_body)
        }
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
