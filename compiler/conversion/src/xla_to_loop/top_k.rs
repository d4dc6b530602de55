//! `xla.top_k` (CHLO's): per row, the k largest elements in descending
//! order and their indices, without sorting the row. Each element enters
//! a sorted window of the best k seen so far (insertion from the end), so a
//! row costs O(n) comparisons plus O(k) moves per element that enters.
//!
//! The order is the total order XLA's TopK uses: floats compare by their
//! bits made monotonic (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN),
//! integers by value. Equal elements keep their index order.

use strata_diag::Result;
use strata_ir::{OpId, TypeKind, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use crate::builder::Builder;

/// The lowering pattern of `chlo.top_k`.
pub(super) const TOP_K: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::TOP_K]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| top_k(cx, b, op, bufs),
};

/// A value's key in the total order, and whether keys compare unsigned.
fn order_key(b: &mut Builder<'_>, s: Scalar) -> (Value, bool) {
    let v = s.real();
    let t = b.ty(v);
    match b.ctx.types.kind(t).clone() {
        TypeKind::Float(_) => {
            let w = b.ctx.types.bit_width(t);
            let it = b.ctx.types.int_ty(w);
            let i = b.cast("arith.bitcast", v, it);
            // Negative floats order backwards: flip all but the sign bit.
            let sh = b.const_int(w as i128 - 1, it);
            let sign = b.binary("arith.shrsi", i, sh);
            let one = b.const_int(1, it);
            let mask = b.binary("arith.shrui", sign, one);
            (b.binary("arith.xori", i, mask), false)
        }
        TypeKind::Int { sign, width } => (v, sign == strata_ir::Signedness::Unsigned || width == 1),
        _ => (v, false),
    }
}

pub(super) fn top_k(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let x = b.ctx.op(op).operands()[0];
    let shape = shape_of(b.ctx, x);
    let n = *shape.last().unwrap_or(&0);
    let k = strata_dialect_xla::ops::misc::top_k_count(b.ctx, op).unwrap_or(0);
    if k == 0 || n == 0 {
        return Ok(());
    }
    let (values, indices) = (bufs[0], bufs[1]);
    let outer = shape[..shape.len() - 1].to_vec();
    let it = b.ctx.types.index_ty();
    let slot_ty = b.ctx.types.memref_ty(&[], it);
    let i32t = b.ctx.types.int_ty(32);
    // Rows are independent; each has its own counters.
    b.parallel_nest(&outer, &mut |b, row| {
        let at = |j: Value| {
            let mut idx = row.to_vec();
            idx.push(j);
            idx
        };
        let count = b.alloca(slot_ty);
        let pos = b.alloca(slot_ty);
        let zero = b.const_index(0);
        b.store(zero, count, &[]);
        b.for_range(0, n, &mut |b, i| {
            let src = at(i);
            let v = cx.element(b, x, &src)?;
            let (key, unsigned) = order_key(b, v);
            let (gt, lt) = if unsigned {
                ("ugt", "ult")
            } else {
                ("sgt", "slt")
            };
            let c = b.load(count, &[]);
            let kk = b.const_index(k);
            let full = b.cmpi("sge", c, kk);
            let last = {
                let km1 = b.const_index(k - 1);
                let idx = at(km1);
                let lv = load_scalar(b, values, &idx);
                order_key(b, lv).0
            };
            let better = b.cmpi(gt, key, last);
            let t = b.ctx.types.int_ty(1);
            let yes = b.const_int(1, t);
            let not_full = b.binary("arith.xori", full, yes);
            let enters = b.binary("arith.ori", not_full, better);
            b.if_then(enters, &mut |b| {
                let km1 = b.const_index(k - 1);
                let start = b.select(full, km1, c);
                b.store(start, pos, &[]);
                // Move smaller elements one place down.
                b.while_loop(
                    &mut |b| {
                        let p = b.load(pos, &[]);
                        let z = b.const_index(0);
                        let one = b.const_index(1);
                        let has_prev = b.cmpi("sgt", p, z);
                        let prev = b.binary("arith.subi", p, one);
                        let prev = b.binary("arith.maxsi", prev, z);
                        let idx = at(prev);
                        let pv = load_scalar(b, values, &idx);
                        let pkey = order_key(b, pv).0;
                        let smaller = b.cmpi(lt, pkey, key);
                        Ok(b.binary("arith.andi", has_prev, smaller))
                    },
                    &mut |b| {
                        let p = b.load(pos, &[]);
                        let one = b.const_index(1);
                        let prev = b.binary("arith.subi", p, one);
                        let (from, to) = (at(prev), at(p));
                        let pv = load_scalar(b, values, &from);
                        store_scalar(b, pv, values, &to);
                        let pi = b.load(indices, &from);
                        b.store(pi, indices, &to);
                        b.store(prev, pos, &[]);
                        Ok(())
                    },
                )?;
                let p = b.load(pos, &[]);
                let to = at(p);
                store_scalar(b, v, values, &to);
                let i32v = b.cast("arith.index_cast", i, i32t);
                b.store(i32v, indices, &to);
                let one = b.const_index(1);
                let c1 = b.binary("arith.addi", c, one);
                let kk = b.const_index(k);
                let c1 = b.binary("arith.minsi", c1, kk);
                b.store(c1, count, &[]);
                Ok(())
            })
        })
    })
}
