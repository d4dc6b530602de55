//! `xla.sort`: a stable insertion sort of every slice along the sort
//! dimension, all operands moving together, ordered by the comparator region.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::elemental::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::region::emit_region;
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// Stable insertion sort of every slice along the sort dimension: an
    /// element moves left while the comparator says it goes before its left
    /// neighbour (all operands move together).
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
        for (i, &x) in operands.iter().enumerate() {
            let out = bufs[i];
            b.loop_nest(&shape, &mut |b, idx| {
                let v = self.element(b, x, idx)?;
                store_scalar(b, v, out, idx);
                Ok(())
            })?;
        }
        let n = shape[dim];
        let mut outer = shape.clone();
        outer[dim] = 1;
        let it = b.ctx.index_ty();
        let jt = b.ctx.memref_ty(&[], it);
        let j = b.alloca(jt);
        b.loop_nest(&outer, &mut |b, oidx| {
            b.for_range(1, n.max(1), &mut |b, i| {
                b.store(i, j, &[]);
                let at = |k: Value| {
                    let mut v = oidx.to_vec();
                    v[dim] = k;
                    v
                };
                b.while_loop(
                    &mut |b| {
                        let jv = b.load(j, &[]);
                        let zero = b.const_index(0);
                        let one = b.const_index(1);
                        let positive = b.cmpi("sgt", jv, zero);
                        let jm = b.binary("arith.subi", jv, one);
                        let left = b.select(positive, jm, zero);
                        let (here, there) = (at(jv), at(left));
                        let mut args = Vec::new();
                        for &buf in bufs {
                            args.push(load_scalar(b, buf, &here));
                            args.push(load_scalar(b, buf, &there));
                        }
                        let less = emit_region(b, body, &args)?;
                        let less = less
                            .first()
                            .ok_or_else(|| {
                                Diagnostic::internal(b.loc, "comparator returns nothing")
                            })?
                            .real();
                        Ok(b.binary("arith.andi", positive, less))
                    },
                    &mut |b| {
                        let jv = b.load(j, &[]);
                        let one = b.const_index(1);
                        let jm = b.binary("arith.subi", jv, one);
                        let (here, there) = (at(jv), at(jm));
                        for &buf in bufs {
                            let (x, y) = (load_scalar(b, buf, &here), load_scalar(b, buf, &there));
                            store_scalar(b, y, buf, &here);
                            store_scalar(b, x, buf, &there);
                        }
                        b.store(jm, j, &[]);
                        Ok(())
                    },
                )
            })
        })
    }
}
