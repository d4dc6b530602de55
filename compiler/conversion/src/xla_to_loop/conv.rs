//! `xla.convolution`: a direct loop nest (any dimension numbers, padding,
//! strides, lhs/rhs dilation, window reversal, feature and batch groups);
//! narrow floats accumulate in f32.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{OpId, TypeKind, Value};

use super::FuncLowering;
use super::elemental::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::scalar::{self, Scalar};
use super::window::window_position;
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// Direct convolution: per result element, a stack accumulator sums
    /// lhs·rhs over the group's input features and the kernel window;
    /// window positions in the padding or between dilated lhs elements
    /// contribute zero.
    pub(super) fn convolution(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let (lhs, rhs) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
        let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
        let result = b.ctx.op(op).results[0];
        let out_shape = shape_of(b.ctx, result);
        let relem = b.ctx.elem(b.ctx.value_ty(result));
        let relem = scalar::compute_type(b.ctx, relem);
        let in_elem = b.ctx.elem(b.ctx.value_ty(lhs));
        let in_elem = scalar::compute_type(b.ctx, in_elem);
        let n = c.input_spatial.len();
        let kin = rs[c.kernel_input_feature];
        let kout = rs[c.kernel_output_feature];
        let per_feature_group = kout / c.feature_groups;
        let per_batch_group = kout / c.batch_groups;
        let batch_per_group = ls[c.input_batch] / c.batch_groups;
        let ksizes: Vec<i64> = c.kernel_spatial.iter().map(|&d| rs[d]).collect();
        let mut inner_space = vec![kin];
        inner_space.extend(&ksizes);
        // Narrow float results accumulate in f32 and round once (as XLA).
        let stored = b.ctx.elem(b.ctx.value_ty(result));
        let acc_elem = scalar::accumulation_type(b.ctx, stored);
        let acc_ty = b.ctx.memref_ty(&[], acc_elem);
        let acc = b.alloca(acc_ty);
        b.loop_nest(&out_shape, &mut |b, oidx| {
            let zero = match b.ctx.kind(acc_elem).clone() {
                TypeKind::Complex(p) => Scalar::Complex(b.zero(p), b.zero(p)),
                _ => Scalar::Real(b.zero(acc_elem)),
            };
            store_scalar(b, zero, acc, &[]);
            let of = oidx[c.output_feature];
            let g = {
                let d = b.const_index(per_feature_group);
                b.binary("arith.divui", of, d)
            };
            let lb = {
                let d = b.const_index(per_batch_group);
                let bg = b.binary("arith.divui", of, d);
                let m = b.const_index(batch_per_group);
                let base = b.binary("arith.muli", bg, m);
                b.binary("arith.addi", base, oidx[c.output_batch])
            };
            b.loop_nest(&inner_space, &mut |b, iv| {
                let (i, ks) = (iv[0], &iv[1..]);
                let kin_c = b.const_index(kin);
                let gbase = b.binary("arith.muli", g, kin_c);
                let cin = b.binary("arith.addi", gbase, i);
                let zero_i = b.const_index(0);
                let mut lidx = vec![zero_i; ls.len()];
                let mut ridx = vec![zero_i; rs.len()];
                lidx[c.input_batch] = lb;
                lidx[c.input_feature] = cin;
                ridx[c.kernel_input_feature] = i;
                ridx[c.kernel_output_feature] = of;
                let mut valid: Option<Value> = None;
                for d in 0..n {
                    let size = ls[c.input_spatial[d]];
                    let (e, ok) = window_position(
                        b,
                        oidx[c.output_spatial[d]],
                        ks[d],
                        c.strides[d],
                        c.rhs_dilation[d],
                        c.padding[d].0,
                        c.lhs_dilation[d],
                        size,
                    );
                    lidx[c.input_spatial[d]] = e;
                    ridx[c.kernel_spatial[d]] = if c.reversal[d] {
                        let top = b.const_index(ksizes[d] - 1);
                        b.binary("arith.subi", top, ks[d])
                    } else {
                        ks[d]
                    };
                    valid = Some(match valid {
                        Some(v) => b.binary("arith.andi", v, ok),
                        None => ok,
                    });
                }
                let x = self.element(b, lhs, &lidx)?;
                let y = self.element(b, rhs, &ridx)?;
                let x = scalar::convert(b, x, in_elem, acc_elem)?;
                let y = scalar::convert(b, y, in_elem, acc_elem)?;
                let p = scalar::emit(b, op, MULTIPLY, &[x, y], acc_elem, acc_elem)?;
                let p = match (valid, p) {
                    (Some(v), Scalar::Real(p)) => {
                        let z = b.zero(acc_elem);
                        Scalar::Real(b.select(v, p, z))
                    }
                    (Some(v), Scalar::Complex(pr, pi)) => {
                        let z = b.zero(b.ty(pr));
                        Scalar::Complex(b.select(v, pr, z), b.select(v, pi, z))
                    }
                    (None, p) => p,
                };
                let a = load_scalar(b, acc, &[]);
                let s = scalar::emit(b, op, ADD, &[a, p], acc_elem, acc_elem)?;
                store_scalar(b, s, acc, &[]);
                Ok(())
            })?;
            let s = load_scalar(b, acc, &[]);
            let s = scalar::convert(b, s, acc_elem, relem)?;
            store_scalar(b, s, out, oidx);
            Ok(())
        })
    }
}
