//! `xla.dot_general`: f32/f64 products with one contracting dimension (and at
//! most one free dimension per side, up to `GEMM_MAX_BATCH` batch dimensions)
//! call the runtime GEMM with a `strata_abi::GemmDesc`; every other product
//! (integers, complex, narrow floats accumulated in f32) is a loop nest.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{OpId, TypeKind, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::elemental::strides;
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::scalar;
use crate::builder::Builder;
use strata_dialect_xla::ops::dot;

/// The lowering pattern of `xla.dot_general` products no kernel computes.
pub(super) const DOT: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::DOT_GENERAL]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| dot_general(cx, b, op, bufs[0]),
};

/// Zero-fills the result, then accumulates into it with the loops
/// ordered batch, lhs-free, contracting, rhs-free: the innermost loop
/// walks rows of the rhs and of the result contiguously (so it
/// vectorizes), while each result element still sums its products in
/// contracting-index order.
pub(super) fn dot_general(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let (lhs, rhs) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
    let d = dot::dot_dims(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "dot_general without dimension numbers"))?;
    let result = b.ctx.op(op).results[0];
    let out_shape = shape_of(b.ctx, result);
    let relem = b.ctx.types.elem(b.ctx.value_ty(result));
    let relem = scalar::compute_type(b.ctx, relem);
    let in_elem = b.ctx.types.elem(b.ctx.value_ty(lhs));
    let in_elem = scalar::compute_type(b.ctx, in_elem);
    // Each operand's own type: they may differ (converted to the result's).
    let rhs_elem = b.ctx.types.elem(b.ctx.value_ty(rhs));
    let rhs_elem = scalar::compute_type(b.ctx, rhs_elem);
    let lfree = dot::free_dims(ls.len(), &d.lhs_batch, &d.lhs_contract);
    let rfree = dot::free_dims(rs.len(), &d.rhs_batch, &d.rhs_contract);
    let stored = b.ctx.types.elem(b.ctx.value_ty(result));
    let stored_in = b.ctx.types.elem(b.ctx.value_ty(lhs));
    let float_kind = match b.ctx.types.kind(stored) {
        TypeKind::Float(k @ (strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)) => Some(*k),
        _ => None,
    };
    if let Some(kind) = float_kind
        && stored_in == stored
        && b.ctx.types.elem(b.ctx.value_ty(rhs)) == stored
        && d.lhs_contract.len() == 1
        && d.lhs_batch.len() <= strata_abi::GEMM_MAX_BATCH
        && lfree.len() <= 1
        && rfree.len() <= 1
        && !dot::is_tiny_batch_dot(b.ctx, op)
    {
        return dot_with_runtime_gemm(cx, b, op, out, kind, &lfree, &rfree);
    }
    // Narrow float results accumulate in an f32 scratch buffer, copied
    // (rounded once) into the result at the end.
    let acc_elem = scalar::accumulation_type(b.ctx, stored);
    let scratch = if acc_elem != relem {
        let t = b.ctx.types.memref_ty(&out_shape, acc_elem);
        Some(b.alloc(t))
    } else {
        None
    };
    let acc_buf = scratch.unwrap_or(out);
    b.parallel_nest(&out_shape, &mut |b, oidx| {
        let zero = match b.ctx.types.kind(acc_elem).clone() {
            TypeKind::Complex(p) => Scalar::Complex(b.zero(p), b.zero(p)),
            _ => Scalar::Real(b.zero(acc_elem)),
        };
        store_scalar(b, zero, acc_buf, oidx);
        Ok(())
    })?;
    let (nb, nc) = (d.lhs_batch.len(), d.lhs_contract.len());
    let outer: Vec<i64> = d
        .lhs_batch
        .iter()
        .map(|&i| ls[i as usize])
        .chain(lfree.iter().map(|&i| ls[i]))
        .collect();
    let csizes: Vec<i64> = d.lhs_contract.iter().map(|&i| ls[i as usize]).collect();
    let rsizes: Vec<i64> = rfree.iter().map(|&i| rs[i]).collect();
    // The lhs element at batch and lhs-free indices `ivs` and contracting
    // indices `con`, in the accumulation type. It does not depend on the
    // rhs-free indices, so it is computed outside their loop: a fused lhs
    // (q of attention, a transpose of a reshape of a slice) would otherwise
    // redo its index arithmetic and loads for every element of a row.
    let lhs_at = |this: &mut FuncLowering<'_>,
                  b: &mut Builder<'_>,
                  ivs: &[Value],
                  con: &[Value]|
     -> Result<Scalar> {
        let (batch, lf) = ivs.split_at(nb);
        let li = operand_index(&d.lhs_batch, &lfree, &d.lhs_contract, [batch, lf, con]);
        let x = this.element(b, lhs, &li)?;
        scalar::convert(b, x, in_elem, acc_elem)
    };
    // One step: out[o] += Σ_u xs[u] * rhs[.., k_u, ..] for the contracting
    // indices `ks` in order, `xs` their lhs elements (the sum order per
    // element is unchanged; unrolling only saves loads and stores of out).
    let step = |this: &mut FuncLowering<'_>,
                b: &mut Builder<'_>,
                ivs: &[Value],
                ks: &[Vec<Value>],
                xs: &[Scalar],
                rf: &[Value]|
     -> Result<()> {
        let batch = &ivs[..nb];
        let oidx: Vec<Value> = ivs.iter().chain(rf).copied().collect();
        let mut acc = load_scalar(b, acc_buf, &oidx);
        for (con, &x) in ks.iter().zip(xs) {
            let ri = operand_index(&d.rhs_batch, &rfree, &d.rhs_contract, [batch, rf, con]);
            let y = this.element(b, rhs, &ri)?;
            let y = scalar::convert(b, y, rhs_elem, acc_elem)?;
            let p = scalar::emit(b, op, MULTIPLY, &[x, y], acc_elem, acc_elem)?;
            acc = scalar::emit(b, op, ADD, &[acc, p], acc_elem, acc_elem)?;
        }
        store_scalar(b, acc, acc_buf, &oidx);
        Ok(())
    };
    const UNROLL: i64 = 4;
    if nc == 1 && !rfree.is_empty() && csizes[0] >= UNROLL {
        let k = csizes[0];
        let main = k - k % UNROLL;
        // Batch and lhs-free indices pick disjoint rows of the result.
        b.parallel_nest(&outer, &mut |b, ivs| {
            b.for_step(0, main, UNROLL, &mut |b, k0| {
                let ks: Vec<Vec<Value>> = (0..UNROLL)
                    .map(|u| {
                        let c = b.const_index(u);
                        vec![b.binary("arith.addi", k0, c)]
                    })
                    .collect();
                let xs = ks
                    .iter()
                    .map(|con| lhs_at(cx, b, ivs, con))
                    .collect::<Result<Vec<_>>>()?;
                b.loop_nest(&rsizes, &mut |b, rf| step(cx, b, ivs, &ks, &xs, rf))
            })?;
            b.for_range(main, k, &mut |b, kk| {
                let x = lhs_at(cx, b, ivs, &[kk])?;
                b.loop_nest(&rsizes, &mut |b, rf| {
                    step(cx, b, ivs, &[vec![kk]], &[x], rf)
                })
            })
        })
    } else {
        let mut inner = csizes.clone();
        inner.extend(&rsizes);
        b.parallel_nest(&outer, &mut |b, ivs| {
            b.loop_nest(&inner, &mut |b, rest| {
                let (con, rf) = rest.split_at(nc);
                let x = lhs_at(cx, b, ivs, con)?;
                step(cx, b, ivs, &[con.to_vec()], &[x], rf)
            })
        })
    }?;
    if let Some(scratch) = scratch {
        b.parallel_nest(&out_shape, &mut |b, oidx| {
            let acc = load_scalar(b, scratch, oidx);
            let v = scalar::convert(b, acc, acc_elem, relem)?;
            store_scalar(b, v, out, oidx);
            Ok(())
        })?;
        b.insert("mem.dealloc", vec![scratch], &[], vec![]);
    }
    Ok(())
}

/// The index of an operand element from the indices of its batch, free
/// and contracting dimensions (which the verifier checked cover them all).
fn operand_index(
    batch: &[i64],
    free: &[usize],
    contract: &[i64],
    [at_batch, at_free, at_contract]: [&[Value]; 3],
) -> Vec<Value> {
    let mut index = vec![None; batch.len() + free.len() + contract.len()];
    let dims = batch.iter().map(|&d| d as usize).zip(at_batch);
    let dims = dims.chain(free.iter().copied().zip(at_free));
    let dims = dims.chain(contract.iter().map(|&d| d as usize).zip(at_contract));
    for (d, &v) in dims {
        if let Some(slot) = index.get_mut(d) {
            *slot = Some(v);
        }
    }
    index.into_iter().flatten().collect()
}

/// f32/f64 products with one contracting dimension and at most one free
/// dimension per side (plus any batch dimensions): the runtime's blocked
/// SIMD GEMM, given the operands' strides, so transposed layouts need no
/// copy. The summation order within a product is the GEMM's.
pub(super) fn dot_with_runtime_gemm(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
    kind: strata_ir::FloatKind,
    lfree: &[usize],
    rfree: &[usize],
) -> Result<()> {
    let (lhs, rhs) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
    let os = shape_of(b.ctx, b.ctx.op(op).results[0]);
    let d = dot::dot_dims(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "dot_general without dimension numbers"))?;
    let (lst, rst, ost) = (strides(&ls), strides(&rs), strides(&os));
    let nb = d.lhs_batch.len();
    let (lc, rc) = (d.lhs_contract[0] as usize, d.rhs_contract[0] as usize);
    let mut desc = strata_abi::GemmDesc {
        batch_rank: nb as i64,
        ..Default::default()
    };
    for (j, (&lb, &rb)) in d.lhs_batch.iter().zip(&d.rhs_batch).enumerate() {
        desc.batch_sizes[j] = ls[lb as usize];
        desc.lhs_batch_strides[j] = lst[lb as usize];
        desc.rhs_batch_strides[j] = rst[rb as usize];
        desc.out_batch_strides[j] = ost[j];
    }
    (desc.m, desc.lhs_row_stride) = lfree.first().map(|&f| (ls[f], lst[f])).unwrap_or((1, 0));
    (desc.n, desc.rhs_col_stride) = rfree.first().map(|&f| (rs[f], rst[f])).unwrap_or((1, 0));
    desc.k = ls[lc];
    desc.lhs_col_stride = lst[lc];
    desc.rhs_row_stride = rst[rc];
    desc.out_row_stride = if lfree.is_empty() { 0 } else { ost[nb] };
    desc.out_col_stride = if rfree.is_empty() {
        0
    } else {
        ost[nb + lfree.len()]
    };
    let (lb, rb) = (cx.buffer_of(b, lhs)?, cx.buffer_of(b, rhs)?);
    let elements = strata_dialect_kernel::gemm::Elements::of_floats(kind, kind)
        .ok_or_else(|| Diagnostic::internal(b.loc, "runtime GEMM on neither f32 nor f64"))?;
    call_gemm(cx, b, elements.signature(), &desc, lb, rb, out)
}

/// `out = lhs · rhs` for every batch, through the runtime's GEMM `sig`,
/// as `desc` describes the three buffers.
pub(super) fn call_gemm(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    sig: &'static strata_abi::runtime::Signature,
    desc: &strata_abi::GemmDesc,
    lhs: Value,
    rhs: Value,
    out: Value,
) -> Result<()> {
    let desc_buf = cx.descriptor_global(b, desc)?;
    cx.call_runtime(b, sig, vec![desc_buf, lhs, rhs, out]);
    Ok(())
}
