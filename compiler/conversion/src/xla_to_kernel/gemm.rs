//! `xla.dot_general` as a batched GEMM on strided views.
//!
//! The result's dimensions are (batch..., lhs free..., rhs free...), each
//! operand dense and row-major. The product becomes, per batch index,
//! `out[M x N] = lhs[M x K] · rhs[K x N]` where
//! - K is the contracting dimensions merged into one: they must follow
//!   each other in memory in both operands (in some common order), else no
//!   stride can say them and the product stays on the loop path;
//! - M is the innermost run of lhs free dimensions that merge in the lhs
//!   (they always merge in the result, where they are adjacent); the other
//!   lhs free dimensions become batch dimensions that do not move the rhs
//!   (stride 0). N likewise for the rhs;
//! - a transposed operand is only other strides (`h @ E.T` reads E's rows
//!   as columns), never a copy. Dimensions of size 1 are dropped.
//!
//! f16 and bf16 operands and results are converted to f32 around the
//! kernel (f64 if any side is f64): the product accumulates in f32 and is
//! rounded once, as XLA:CPU computes narrow-float dots.

use strata_abi::{GEMM_MAX_BATCH, GemmDesc};
use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::CONVERT;
use strata_dialect_xla::ops::dot::{DotDims, dot_dims, free_dims};
use strata_dialect_xla::transforms::build::OpBuilder;
use strata_ir::{Context, FloatKind, OpId, Type, TypeKind};

pub(crate) use super::view::row_major as strides;

/// One dimension of a view: its size and its stride in each buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dim {
    pub size: i64,
    /// Strides in (lhs, rhs, out); 0 where the dimension does not move it.
    pub lhs: i64,
    pub rhs: i64,
    pub out: i64,
}

/// Whether `outer` then `inner` (adjacent, outer first) merge into one
/// dimension in every buffer.
fn merges(outer: &Dim, inner: &Dim) -> bool {
    let fits = |o: i64, i: i64| o == i * inner.size;
    fits(outer.lhs, inner.lhs) && fits(outer.rhs, inner.rhs) && fits(outer.out, inner.out)
}

/// Splits `dims` (outermost first, size-1 dimensions already dropped) into
/// the innermost run that merges into one dimension, and the rest.
pub(crate) fn innermost_run(dims: &[Dim]) -> (Option<Dim>, Vec<Dim>) {
    let Some(last) = dims.last() else {
        return (None, vec![]);
    };
    let mut merged = *last;
    let mut start = dims.len() - 1;
    while start > 0 && merges(&dims[start - 1], &merged) {
        let outer = dims[start - 1];
        merged.size *= outer.size;
        start -= 1;
    }
    (Some(merged), dims[..start].to_vec())
}

/// The GEMM descriptor of a dot of operands of shapes `ls` and `rs` laid
/// out with strides `lst` and `rst`, writing its result (dimensions in dot
/// order: batch, lhs free, rhs free) with strides `ost`; None when the
/// contracting dimensions do not merge or there are too many batch
/// dimensions.
pub(crate) fn describe(
    (ls, lst): (&[i64], &[i64]),
    (rs, rst): (&[i64], &[i64]),
    ost: &[i64],
    d: &DotDims,
) -> Option<GemmDesc> {
    let lfree = free_dims(ls.len(), &d.lhs_batch, &d.lhs_contract);
    let rfree = free_dims(rs.len(), &d.rhs_batch, &d.rhs_contract);
    let nb = d.lhs_batch.len();
    if ost.len() != nb + lfree.len() + rfree.len() {
        return None;
    }

    // K: the contracting pairs, outermost (by lhs stride) first, merged.
    let mut contract: Vec<Dim> = d
        .lhs_contract
        .iter()
        .zip(&d.rhs_contract)
        .map(|(&l, &r)| Dim {
            size: ls[l as usize],
            lhs: lst[l as usize],
            rhs: rst[r as usize],
            out: 0,
        })
        .filter(|c| c.size != 1)
        .collect();
    contract.sort_by_key(|c| std::cmp::Reverse(c.lhs));
    if contract.iter().any(|c| c.size == 0) {
        contract = vec![Dim {
            size: 0,
            lhs: 0,
            rhs: 0,
            out: 0,
        }];
    }
    let (k, rest) = innermost_run(&contract);
    if !rest.is_empty() {
        return None;
    }
    let k = k.unwrap_or(Dim {
        size: 1,
        lhs: 0,
        rhs: 0,
        out: 0,
    });

    let lhs_free: Vec<Dim> = lfree
        .iter()
        .enumerate()
        .map(|(j, &i)| Dim {
            size: ls[i],
            lhs: lst[i],
            rhs: 0,
            out: ost[nb + j],
        })
        .filter(|x| x.size != 1)
        .collect();
    let mut lhs_free = lhs_free;
    lhs_free.sort_by_key(|x| std::cmp::Reverse(x.lhs));
    let rhs_free: Vec<Dim> = rfree
        .iter()
        .enumerate()
        .map(|(j, &i)| Dim {
            size: rs[i],
            lhs: 0,
            rhs: rst[i],
            out: ost[nb + lfree.len() + j],
        })
        .filter(|x| x.size != 1)
        .collect();
    let mut rhs_free = rhs_free;
    rhs_free.sort_by_key(|x| std::cmp::Reverse(x.rhs));
    let (m, lhs_rest) = innermost_run(&lhs_free);
    let (n, rhs_rest) = innermost_run(&rhs_free);
    let unit = Dim {
        size: 1,
        lhs: 0,
        rhs: 0,
        out: 0,
    };
    let (m, n) = (m.unwrap_or(unit), n.unwrap_or(unit));

    let mut batch: Vec<Dim> = d
        .lhs_batch
        .iter()
        .zip(&d.rhs_batch)
        .enumerate()
        .map(|(j, (&l, &r))| Dim {
            size: ls[l as usize],
            lhs: lst[l as usize],
            rhs: rst[r as usize],
            out: ost[j],
        })
        .filter(|b| b.size != 1)
        .collect();
    batch.extend(lhs_rest);
    batch.extend(rhs_rest);
    descriptor(&batch, m, n, k)
}

/// The descriptor of a product with batch dimensions `batch`, rows `m`,
/// columns `n` and contraction `k` (each a merged dimension with its
/// strides); None with more batch dimensions than a descriptor holds.
pub(crate) fn descriptor(batch: &[Dim], m: Dim, n: Dim, k: Dim) -> Option<GemmDesc> {
    if batch.len() > GEMM_MAX_BATCH {
        return None;
    }
    let mut desc = GemmDesc {
        batch_rank: batch.len() as i64,
        m: m.size,
        n: n.size,
        k: k.size,
        lhs_row_stride: m.lhs,
        lhs_col_stride: k.lhs,
        rhs_row_stride: k.rhs,
        rhs_col_stride: n.rhs,
        out_row_stride: m.out,
        out_col_stride: n.out,
        ..GemmDesc::default()
    };
    for (j, b) in batch.iter().enumerate() {
        desc.batch_sizes[j] = b.size;
        desc.lhs_batch_strides[j] = b.lhs;
        desc.rhs_batch_strides[j] = b.rhs;
        desc.out_batch_strides[j] = b.out;
    }
    Some(desc)
}

/// Whether an integer product (8- or 16-bit operands, a 32- or 64-bit
/// result) is computed exactly by an f64 GEMM: every partial sum is an
/// integer below 2^53, and the total fits the result's type, so no wrap
/// XLA would make is missed (`i8 x i8 -> i32` up to 32,767 terms: the
/// bound below is a little conservative).
fn exact_in_f64(ctx: &Context, op: OpId) -> bool {
    let o = ctx.op(op);
    let bits = |v| match ctx.types.kind(ctx.types.elem(ctx.value_ty(v))) {
        TypeKind::Int { width, .. } => Some(*width),
        _ => None,
    };
    let (Some(a), Some(b), Some(r)) = (
        bits(o.operands()[0]),
        bits(o.operands()[1]),
        bits(o.results[0]),
    ) else {
        return false;
    };
    if a > 16 || b > 16 || !(32..=64).contains(&r) {
        return false;
    }
    let Some(d) = dot_dims(ctx, op) else {
        return false;
    };
    let ls = ctx
        .types
        .shape(ctx.value_ty(o.operands()[0]))
        .unwrap_or(&[]);
    let k: i64 = d.lhs_contract.iter().map(|&i| ls[i as usize]).product();
    // |x| < 2^a for a-bit operands (signed or not); the sum of k products
    // stays below 2^(a + b + log2 k), which must fit the result (signed).
    let log_k = 64 - (k.max(1) as u64).leading_zeros();
    a + b + log_k < r.min(53)
}

/// The float kind of `t`'s elements, if they are floats.
pub(crate) fn float_kind(ctx: &Context, t: Type) -> Option<FloatKind> {
    match ctx.types.kind(ctx.types.elem(t)) {
        TypeKind::Float(
            k @ (FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64),
        ) => Some(*k),
        _ => None,
    }
}

/// The element types a product runs its kernel in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Compute {
    /// Operands and sums in this float type (f32 or f64), the others
    /// converted around the kernel.
    Wide(FloatKind),
    /// bf16 operands as they are, sums in f32 (the bf16 kernel).
    Bf16,
    /// i8 operands as they are, sums in i32 wrapping (the i8 kernel).
    S8,
}

impl Compute {
    /// f32, or f64 when any of `kinds` is f64 (narrow floats accumulate in
    /// f32 and are rounded once, as XLA:CPU computes their dots).
    pub(crate) fn wide(kinds: &[FloatKind]) -> Self {
        match kinds.contains(&FloatKind::F64) {
            true => Compute::Wide(FloatKind::F64),
            false => Compute::Wide(FloatKind::F32),
        }
    }

    /// How a product of float operands and result (`kinds`: lhs, rhs,
    /// result) computes: bf16 operands with a bf16 or f32 result on the
    /// bf16 kernel, the rest widened.
    pub(crate) fn of_floats(kinds: &[FloatKind]) -> Self {
        match kinds {
            [
                FloatKind::BF16,
                FloatKind::BF16,
                FloatKind::BF16 | FloatKind::F32,
            ] => Compute::Bf16,
            _ => Compute::wide(kinds),
        }
    }

    /// The operands' and the sums' element types.
    fn types(self, ctx: &mut Context) -> (Type, Type) {
        match self {
            Compute::Wide(k) => {
                let t = ctx.types.float_ty(k);
                (t, t)
            }
            Compute::Bf16 => (
                ctx.types.float_ty(FloatKind::BF16),
                ctx.types.float_ty(FloatKind::F32),
            ),
            Compute::S8 => (ctx.types.int_ty(8), ctx.types.int_ty(32)),
        }
    }
}

/// Signed (or signless) integers of `width` bits, when `t`'s elements are.
fn signed_int(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.types.kind(ctx.types.elem(t)) {
        TypeKind::Int { width, sign } if *sign != strata_ir::Signedness::Unsigned => Some(*width),
        _ => None,
    }
}

/// How a dot of operand and result types `types` computes on a kernel, if
/// one does: bf16 operands with a bf16 or f32 result on the bf16 kernel;
/// i8 operands with an i8, i16 or i32 result on the i8 kernel (its i32 sums
/// wrap, and truncated they give the narrower type's wrapped sums); other
/// floats widened; integers in f64 when `exact_in_f64`.
fn compute_of(ctx: &Context, op: OpId, types: [Type; 3]) -> Option<Compute> {
    let floats: Option<Vec<FloatKind>> = types.iter().map(|&t| float_kind(ctx, t)).collect();
    if let Some(kinds) = floats {
        return Some(Compute::of_floats(&kinds));
    }
    let ints = types.map(|t| signed_int(ctx, t));
    if let [Some(8), Some(8), Some(8 | 16 | 32)] = ints {
        return Some(Compute::S8);
    }
    exact_in_f64(ctx, op).then_some(Compute::Wide(FloatKind::F64))
}

/// Rewrites `op` (a `dot_general`) into a `kernel.gemm` when one computes it.
pub(crate) fn select(ctx: &mut Context, op: OpId) -> Result<()> {
    let loc = ctx.op(op).loc;
    let [lhs, rhs] = ctx.op(op).operands()[..] else {
        return Err(Diagnostic::internal(loc, "dot_general takes two operands"));
    };
    let result = ctx.op(op).results[0];
    let types = [lhs, rhs, result].map(|v| ctx.value_ty(v));
    let Some(compute) = compute_of(ctx, op, types) else {
        return Ok(());
    };
    let Some(d) = dot_dims(ctx, op) else {
        return Err(Diagnostic::internal(
            loc,
            "dot_general without dimension numbers",
        ));
    };
    // A large batch of tiny products stays a loop nest.
    if strata_dialect_xla::ops::dot::is_tiny_batch_dot(ctx, op) {
        return Ok(());
    }
    let shape = |t: Type| ctx.types.shape(t).unwrap_or(&[]).to_vec();
    // Operands read through the transposes and reshapes that made them;
    // the result written through those it only goes through.
    let (lsrc, lst) = super::view::operand_view(ctx, lhs);
    let (rsrc, rst) = super::view::operand_view(ctx, rhs);
    let func = strata_ir::builtin::enclosing_func(ctx, op);
    let out = func.and_then(|f| super::view::result_view(ctx, f, result));
    let ost = match &out {
        Some((_, s, _)) => s.clone(),
        None => strides(&shape(types[2])),
    };
    let (ls, rs) = (shape(types[0]), shape(types[1]));
    let Some(desc) = describe((&ls, &lst), (&rs, &rst), &ost, &d) else {
        return Ok(());
    };
    let (lsrc, rsrc) = (Some(lsrc), Some(rsrc));
    let Some((final_value, _, chain)) = out else {
        replace_with_gemm(ctx, op, lsrc, rsrc, compute, &desc)?;
        return super::view::remove_dead(ctx, func, &[lhs, rhs]);
    };
    // The product is written as the chain's last value: the kernel takes
    // its place, and the chain and the dot go.
    let last = *chain.last().unwrap_or(&op);
    replace_with_gemm(ctx, last, lsrc, rsrc, compute, &desc)?;
    let _ = final_value;
    for &c in chain.iter().rev().skip(1) {
        ctx.detach_op(c);
    }
    ctx.detach_op(op);
    super::view::remove_dead(ctx, func, &[lhs, rhs])
}

/// Replaces `op` (whose one result is the product) by a `kernel.gemm` of
/// `lhs` and `rhs` with `desc`, computing as `compute` says: operands of
/// other types converted before it, the result after.
pub(crate) fn replace_with_gemm(
    ctx: &mut Context,
    op: OpId,
    lhs: Option<strata_ir::Value>,
    rhs: Option<strata_ir::Value>,
    compute: Compute,
    desc: &GemmDesc,
) -> Result<()> {
    let result = ctx.op(op).results[0];
    let (lhs, rhs) = match (lhs, rhs) {
        (Some(l), Some(r)) => (l, r),
        _ => (ctx.op(op).operands()[0], ctx.op(op).operands()[1]),
    };
    let (operand, acc) = compute.types(ctx);
    let attrs = strata_dialect_kernel::gemm::attrs(ctx, desc);
    let mut b = OpBuilder::before_op(ctx, op)?;
    let as_operand = |b: &mut OpBuilder<'_>, v| {
        if b.elem_of(v) == operand {
            return v;
        }
        let shape = b.shape_of(v);
        let ty = b.tensor(&shape, operand);
        b.op(CONVERT, vec![v], ty, vec![])
    };
    let (l, r) = (as_operand(&mut b, lhs), as_operand(&mut b, rhs));
    let out_shape = b.shape_of(result);
    let out_ty = b.tensor(&out_shape, acc);
    let mut product = b.op(strata_dialect_kernel::GEMM, vec![l, r], out_ty, attrs);
    if b.elem_of(result) != acc {
        let ty = b.ctx.value_ty(result);
        product = b.op(CONVERT, vec![product], ty, vec![]);
    }
    b.replace(op, &[product]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptor for dense row-major operands and result.
    fn dense(ls: &[i64], rs: &[i64], d: &DotDims) -> Option<GemmDesc> {
        let os = strata_dialect_xla::ops::dot::result_shape(ls, rs, d);
        describe((ls, &strides(ls)), (rs, &strides(rs)), &strides(&os), d)
    }

    fn dims(lb: &[i64], rb: &[i64], lc: &[i64], rc: &[i64]) -> DotDims {
        DotDims {
            lhs_batch: lb.to_vec(),
            rhs_batch: rb.to_vec(),
            lhs_contract: lc.to_vec(),
            rhs_contract: rc.to_vec(),
        }
    }

    #[test]
    fn a_rank_3_dense_layer_is_one_gemm() {
        // (1, 128, 768) x (768, 3072): M = 128 (the size-1 dim dropped).
        let d = dense(&[1, 128, 768], &[768, 3072], &dims(&[], &[], &[2], &[0])).unwrap();
        assert_eq!((d.batch_rank, d.m, d.n, d.k), (0, 128, 3072, 768));
        assert_eq!((d.lhs_row_stride, d.lhs_col_stride), (768, 1));
        assert_eq!((d.rhs_row_stride, d.rhs_col_stride), (3072, 1));
        assert_eq!((d.out_row_stride, d.out_col_stride), (3072, 1));
        // (4, 128, 768): batch and sequence merge into M = 512.
        let d = dense(&[4, 128, 768], &[768, 3072], &dims(&[], &[], &[2], &[0])).unwrap();
        assert_eq!((d.batch_rank, d.m, d.lhs_row_stride), (0, 512, 768));
    }

    #[test]
    fn a_transposed_rhs_is_strides() {
        // h @ E.T as dot_general contracting [2] x [1].
        let d = dense(&[2, 128, 768], &[50257, 768], &dims(&[], &[], &[2], &[1])).unwrap();
        assert_eq!((d.m, d.n, d.k), (256, 50257, 768));
        assert_eq!((d.rhs_row_stride, d.rhs_col_stride), (1, 768));
    }

    #[test]
    fn unmergeable_free_dims_become_batches() {
        // lhs (8, 4, 16) contracting 1: free dims 0 and 2 do not merge.
        let d = dense(&[8, 4, 16], &[4, 5], &dims(&[], &[], &[1], &[0])).unwrap();
        assert_eq!((d.batch_rank, d.m, d.n, d.k), (1, 16, 5, 4));
        assert_eq!(
            (
                d.batch_sizes[0],
                d.lhs_batch_strides[0],
                d.rhs_batch_strides[0]
            ),
            (8, 64, 0)
        );
        assert_eq!((d.lhs_row_stride, d.lhs_col_stride), (1, 16));
        assert_eq!(
            (d.out_batch_strides[0], d.out_row_stride, d.out_col_stride),
            (80, 5, 1)
        );
    }

    #[test]
    fn a_transposed_result_is_written_through_strides() {
        // (dy.T @ x).T: dot (7, 9) written as its (9, 7) transpose.
        let ls = [12, 7];
        let rs = [12, 9];
        let d = dims(&[], &[], &[0], &[0]);
        let ost = [1, 7]; // dot dim 0 (size 7) moves by 1, dim 1 by 7
        let g = describe((&ls, &strides(&ls)), (&rs, &strides(&rs)), &ost, &d).unwrap();
        assert_eq!((g.m, g.n, g.k), (7, 9, 12));
        assert_eq!((g.out_row_stride, g.out_col_stride), (1, 7));
        assert_eq!((g.lhs_row_stride, g.lhs_col_stride), (1, 7));
    }

    #[test]
    fn contracting_dims_merge_only_when_adjacent_in_both() {
        // Attention-style: (b, h, t, d) x (b, h, s, d), batch [0, 1].
        let d = dense(
            &[2, 12, 128, 64],
            &[2, 12, 128, 64],
            &dims(&[0, 1], &[0, 1], &[3], &[3]),
        )
        .unwrap();
        assert_eq!((d.batch_rank, d.m, d.n, d.k), (2, 128, 128, 64));
        // Two contracting dims adjacent in both operands merge.
        let d = dense(&[5, 3, 4], &[3, 4, 6], &dims(&[], &[], &[1, 2], &[0, 1])).unwrap();
        assert_eq!((d.m, d.n, d.k), (5, 6, 12));
        // Swapped in the rhs: no stride says it.
        assert!(dense(&[5, 3, 4], &[4, 3, 6], &dims(&[], &[], &[1, 2], &[1, 0])).is_none());
    }
}
