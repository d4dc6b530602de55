//! `xla.triangular_solve`: on f16, bf16, f32 and f64 one call to the
//! runtime, which computes XLA:CPU's expansion of the op (the result of an
//! ill-conditioned system depends on the algorithm; see
//! `runtime/src/triangular_solve.rs`). Solves that stand for LAPACK's trsm
//! (marked `lapack` by `xla-lapack-custom-calls`) on f32, f64 and complex
//! elements are one call of the runtime's blocked trsm
//! (`runtime/src/linalg/trsm.rs`). Other complex solves (and f16 or bf16
//! trsm) are lowered here by substitution in place. The result starts as b;
//! the system is solved one right-hand side (a column of b when a is on the
//! left, a row when it is on the right) at a time, in parallel, by forward
//! or back substitution over op(a) (transposed or conjugate-transposed as
//! `transpose_a` says), reading only the triangle `lower` names and taking
//! the diagonal as 1 when `unit_diagonal`.

use strata_abi::{
    ElemCode, LINALG_CONJUGATE_A, LINALG_LEFT_SIDE, LINALG_LOWER, LINALG_TRANSPOSE_A,
    LINALG_UNIT_DIAGONAL, LinalgDesc, runtime,
};
use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::attrs::{self, Transpose};
use strata_dialect_xla::names::{DIVIDE, MULTIPLY, SUBTRACT};
use strata_ir::{OpId, Type, TypeKind, Value};

use super::FuncLowering;
use super::decomposition;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::scalar;
use crate::builder::Builder;

/// The lowering pattern of `xla.triangular_solve`.
pub(super) const TRIANGULAR_SOLVE: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::TRIANGULAR_SOLVE]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| triangular_solve(cx, b, op, bufs[0]),
};

/// The lowering pattern of `xla.cholesky`.
pub(super) const CHOLESKY: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::CHOLESKY]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| cholesky(cx, b, op, bufs),
};

/// The lowering pattern of `xla.lu`.
pub(super) const LU: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::LU]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| lu(cx, b, op, bufs),
};

pub(super) fn triangular_solve(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    x: Value,
) -> Result<()> {
    let (a, rhs) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let shape = shape_of(b.ctx, rhs);
    let r = shape.len();
    let (m, n) = (shape[r - 2], shape[r - 1]);
    let batch = shape[..r - 2].to_vec();
    let left = attrs::flag(b.ctx, op, "left_side") == Some(true);
    let lower = attrs::flag(b.ctx, op, "lower") == Some(true);
    let unit = attrs::flag(b.ctx, op, "unit_diagonal") == Some(true);
    let transpose = attrs::transpose_a(b.ctx, op).unwrap_or(Transpose::NoTranspose);
    let stored = b.ctx.types.elem(b.ctx.value_ty(x));
    let elem = scalar::compute_type(b.ctx, stored);
    let code = match b.ctx.types.kind(stored) {
        TypeKind::Float(k) => match k {
            strata_ir::FloatKind::F16 => Some(ElemCode::F16),
            strata_ir::FloatKind::BF16 => Some(ElemCode::BF16),
            strata_ir::FloatKind::F32 => Some(ElemCode::F32),
            strata_ir::FloatKind::F64 => Some(ElemCode::F64),
            _ => None,
        },
        TypeKind::Complex(part) => match b.ctx.types.kind(*part) {
            TypeKind::Float(strata_ir::FloatKind::F32) => Some(ElemCode::C64),
            TypeKind::Float(strata_ir::FloatKind::F64) => Some(ElemCode::C128),
            _ => None,
        },
        _ => None,
    };
    let complex = matches!(b.ctx.types.kind(stored), TypeKind::Complex(_));
    // A `stablehlo.triangular_solve` on reals is XLA:CPU's expansion
    // (the runtime's `triangular_solve.rs`); one that came from LAPACK's
    // trsm (`xla-lapack-custom-calls` marks it) is a blocked trsm
    // (`linalg/trsm.rs`), as LAPACK's is.
    let lapack = b.ctx.attr_of(op, "lapack").is_some();
    let call = match (code, lapack) {
        (Some(ElemCode::F32 | ElemCode::F64 | ElemCode::C64 | ElemCode::C128), true) => {
            Some(&runtime::TRSM)
        }
        (Some(ElemCode::F16 | ElemCode::BF16 | ElemCode::F32 | ElemCode::F64), false) => {
            Some(&runtime::TRIANGULAR_SOLVE)
        }
        _ => None,
    };
    if let (Some(code), Some(call)) = (code, call) {
        let bit = |on: bool, v: i64| if on { v } else { 0 };
        let desc = LinalgDesc {
            elem: code as i64,
            batch: batch.iter().product(),
            rows: m,
            cols: n,
            flags: bit(left, LINALG_LEFT_SIDE)
                | bit(lower, LINALG_LOWER)
                | bit(transpose != Transpose::NoTranspose, LINALG_TRANSPOSE_A)
                | bit(
                    transpose == Transpose::Adjoint && complex,
                    LINALG_CONJUGATE_A,
                )
                | bit(unit, LINALG_UNIT_DIAGONAL),
            ..LinalgDesc::default()
        };
        return decomposition::call(cx, b, op, &[x], call, &desc);
    }
    let lowered = matches!(
        b.ctx.types.kind(stored),
        TypeKind::Float(strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)
    ) || complex;
    if !lowered {
        return Err(Diagnostic::unsupported(
            b.loc,
            "triangular_solve is supported for f16, bf16, f32, f64 and complex elements",
        ));
    }
    // x = b.
    copy_elements(cx, b, rhs, x, &shape)?;
    // The system S: op(a) on the left, op(a)ᵀ (solving xᵀ) on the right.
    let transposed = transpose != Transpose::NoTranspose;
    let m_lower = lower != transposed;
    let s_lower = if left { m_lower } else { !m_lower };
    let size = if left { m } else { n };
    let count = if left { n } else { m };
    let mut outer = batch.clone();
    outer.push(count);
    let acc_ty = b.ctx.types.memref_ty(&[], stored);
    b.parallel_nest(&outer, &mut |b, ivs| {
        let (bidx, c) = (&ivs[..ivs.len() - 1], ivs[ivs.len() - 1]);
        // Element (i, k) of the vector being solved, in x.
        let x_at = |i: Value| {
            let mut idx = bidx.to_vec();
            if left {
                idx.extend([i, c]);
            } else {
                idx.extend([c, i]);
            }
            idx
        };
        // S(i, k): M(i, k) on the left, M(k, i) on the right, where
        // M(i, k) = a(i, k), a(k, i) or conj(a(k, i)).
        let s_at = |this: &mut FuncLowering<'_>,
                    b: &mut Builder<'_>,
                    i: Value,
                    k: Value|
         -> Result<Scalar> {
            let (mi, mk) = if left { (i, k) } else { (k, i) };
            let (ai, ak) = if transposed { (mk, mi) } else { (mi, mk) };
            let mut idx = bidx.to_vec();
            idx.extend([ai, ak]);
            let v = this.element(b, a, &idx)?;
            Ok(match (transpose, v) {
                (Transpose::Adjoint, Scalar::Complex(re, im)) => {
                    Scalar::Complex(re, b.unary("arith.negf", im))
                }
                (_, v) => v,
            })
        };
        let acc = b.alloca(acc_ty);
        b.for_range(0, size, &mut |b, step| {
            let i = if s_lower {
                step
            } else {
                let last = b.const_index(size - 1);
                b.binary("arith.subi", last, step)
            };
            let xi = x_at(i);
            let v = load_scalar(b, x, &xi);
            store_scalar(b, v, acc, &[]);
            // The solved part: k < i (forward) or k > i (backward).
            let (lo, hi) = if s_lower {
                (b.const_index(0), i)
            } else {
                let one = b.const_index(1);
                (b.binary("arith.addi", i, one), b.const_index(size))
            };
            let one = b.const_index(1);
            b.for_values(lo, hi, one, &mut |b, k| {
                let s = s_at(cx, b, i, k)?;
                let xk = load_scalar(b, x, &x_at(k));
                let p = scalar::emit(b, op, MULTIPLY, &[s, xk], elem, elem)?;
                let cur = load_scalar(b, acc, &[]);
                let d = scalar::emit(b, op, SUBTRACT, &[cur, p], elem, elem)?;
                store_scalar(b, d, acc, &[]);
                Ok(())
            })?;
            let mut v = load_scalar(b, acc, &[]);
            if !unit {
                let diag = s_at(cx, b, i, i)?;
                v = scalar::emit(b, op, DIVIDE, &[v, diag], elem, elem)?;
            }
            store_scalar(b, v, x, &xi);
            Ok(())
        })
    })
}

/// `xla.cholesky` with an `info` result (LAPACK's potrf) on f32 and f64:
/// one call of the runtime's blocked potrf (`runtime/src/linalg/
/// cholesky.rs`). Otherwise: per matrix (in parallel), the result starts as a; column
/// by column, L(j,j) = sqrt(re a(j,j) - Σ_k<j |L(j,k)|²) and
/// L(i,j) = (a(i,j) - Σ_k<j L(i,k) conj(L(j,k))) / L(j,j) below it, in
/// place. With `lower` the factor is written over the lower triangle;
/// otherwise (StableHLO's default) U = Lᴴ is written over the upper one,
/// read from there too: the same steps through `Triangle`. The first j
/// whose pivot is not positive sets `info` to j + 1 (LAPACK's potrf);
/// the factorization goes on. The other triangle keeps a where there is
/// an `info` (potrf leaves it so) and is zero without one, as XLA:CPU's
/// `stablehlo.cholesky` returns it (the spec leaves it to the
/// implementation; found by comparing mutants with XLA).
pub(super) fn cholesky(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let a = b.ctx.op(op).operands()[0];
    let triangle = Triangle {
        lower: attrs::flag(b.ctx, op, "lower") == Some(true),
    };
    let out = bufs[0];
    let info = bufs.get(1).copied();
    let shape = shape_of(b.ctx, a);
    let r = shape.len();
    let n = shape[r - 1];
    let batch = shape[..r - 2].to_vec();
    let stored = b.ctx.types.elem(b.ctx.value_ty(out));
    if let (true, Some(info)) = (is_real(b, stored), info) {
        // LAPACK's potrf on reals: the runtime's blocked one
        // (`linalg/cholesky.rs`).
        let mut desc = decomposition::matrices_desc(b, a)?;
        desc.flags = decomposition::flag_bits(b, op, "lower", LINALG_LOWER);
        return decomposition::call(cx, b, op, &[out, info], &runtime::POTRF, &desc);
    }
    let elem = scalar::compute_type(b.ctx, stored);
    copy_elements(cx, b, a, out, &shape)?;
    let acc_ty = b.ctx.types.memref_ty(&[], stored);
    let i32t = b.ctx.types.int_ty(32);
    let info_ty = b.ctx.types.memref_ty(&[], i32t);
    b.parallel_nest(&batch, &mut |b, bidx| {
        let acc = b.alloca(acc_ty);
        let status = b.alloca(info_ty);
        let zero_i = b.const_int(0, i32t);
        b.store(zero_i, status, &[]);
        b.for_range(0, n, &mut |b, j| {
            // Rows j..n of column j, each minus its dot with row j so far.
            b.for_values_from(j, n, &mut |b, i| {
                let v = triangle.load(b, out, bidx, i, j);
                store_scalar(b, v, acc, &[]);
                let zero = b.const_index(0);
                let one = b.const_index(1);
                b.for_values(zero, j, one, &mut |b, k| {
                    let lik = triangle.load(b, out, bidx, i, k);
                    let ljk = triangle.load(b, out, bidx, j, k);
                    let ljk = conj(b, ljk);
                    let p = scalar::emit(b, op, MULTIPLY, &[lik, ljk], elem, elem)?;
                    let cur = load_scalar(b, acc, &[]);
                    let d = scalar::emit(b, op, SUBTRACT, &[cur, p], elem, elem)?;
                    store_scalar(b, d, acc, &[]);
                    Ok(())
                })?;
                let s = load_scalar(b, acc, &[]);
                let on_diagonal = b.cmpi("eq", i, j);
                b.if_else(
                    on_diagonal,
                    &mut |b| {
                        // The pivot: the square root of its real part
                        // (LAPACK ignores the imaginary one), or a failed
                        // minor.
                        let x = s.real();
                        let zero = b.zero(b.ty(x));
                        let positive = b.cmpf("ogt", x, zero);
                        let t = b.ctx.types.int_ty(1);
                        let yes = b.const_int(1, t);
                        let bad = b.binary("arith.xori", positive, yes);
                        record_first_failure(b, status, Some(bad), j);
                        let root = b.unary("arith.sqrt", x);
                        let pivot = match s {
                            Scalar::Real(_) => Scalar::Real(root),
                            Scalar::Complex(..) => Scalar::Complex(root, zero),
                        };
                        triangle.store(b, pivot, out, bidx, j, j);
                        Ok(())
                    },
                    &mut |b| {
                        let d = triangle.load(b, out, bidx, j, j);
                        let q = scalar::emit(b, op, DIVIDE, &[s, d], elem, elem)?;
                        triangle.store(b, q, out, bidx, i, j);
                        if info.is_none() {
                            triangle.clear_mirror(b, stored, out, bidx, i, j);
                        }
                        Ok(())
                    },
                )
            })
        })?;
        if let Some(info) = info {
            let v = b.load(status, &[]);
            b.store(v, info, bidx);
        }
        Ok(())
    })
}

/// Where a Cholesky factor lives: L(i, j) (i ≥ j) is element (i, j) of
/// the lower triangle, or conj of element (j, i) of the upper one (U = Lᴴ).
#[derive(Clone, Copy)]
struct Triangle {
    lower: bool,
}

impl Triangle {
    /// L(i, j) of matrix `bidx` in `mem`.
    fn load(self, b: &mut Builder<'_>, mem: Value, bidx: &[Value], i: Value, j: Value) -> Scalar {
        if self.lower {
            load_scalar(b, mem, &matrix_index(bidx, i, j))
        } else {
            let v = load_scalar(b, mem, &matrix_index(bidx, j, i));
            conj(b, v)
        }
    }

    /// Zeroes the element of the other triangle that mirrors L(i, j).
    fn clear_mirror(
        self,
        b: &mut Builder<'_>,
        stored: Type,
        mem: Value,
        bidx: &[Value],
        i: Value,
        j: Value,
    ) {
        let zero = Scalar::zero(b, stored);
        Triangle { lower: !self.lower }.store(b, zero, mem, bidx, i, j);
    }

    /// Sets L(i, j) of matrix `bidx` in `mem` to `v`.
    fn store(self, b: &mut Builder<'_>, v: Scalar, mem: Value, bidx: &[Value], i: Value, j: Value) {
        if self.lower {
            store_scalar(b, v, mem, &matrix_index(bidx, i, j));
        } else {
            let v = conj(b, v);
            store_scalar(b, v, mem, &matrix_index(bidx, j, i));
        }
    }
}

/// The index of element (i, j) of matrix `bidx`.
fn matrix_index(bidx: &[Value], i: Value, j: Value) -> Vec<Value> {
    let mut idx = bidx.to_vec();
    idx.extend([i, j]);
    idx
}

/// How getrf ranks pivot candidates: |x|, and |re| + |im| for complex x
/// (LAPACK's icamax/izamax, not the modulus), zero exactly for 0.
fn pivot_magnitude(b: &mut Builder<'_>, v: Scalar) -> Value {
    match v {
        Scalar::Real(x) => b.unary("arith.absf", x),
        Scalar::Complex(re, im) => {
            let (are, aim) = (b.unary("arith.absf", re), b.unary("arith.absf", im));
            b.binary("arith.addf", are, aim)
        }
    }
}

/// The complex conjugate (a real value unchanged).
fn conj(b: &mut Builder<'_>, v: Scalar) -> Scalar {
    match v {
        Scalar::Real(_) => v,
        Scalar::Complex(re, im) => Scalar::Complex(re, b.unary("arith.negf", im)),
    }
}

/// `xla.lu`: on f32 and f64 one call of the runtime's blocked getrf
/// (`runtime/src/linalg/lu.rs`); otherwise (complex) lowered here:
/// LAPACK's getrf per matrix (in parallel), in place: for each
/// column j, the row of the largest `pivot_magnitude` at or below j (the first of
/// equal ones) is swapped into row j and recorded 1-based in the pivots;
/// the column below the pivot is divided by it (a zero pivot sets info to
/// j + 1 on first sight and skips the division); the trailing block gets
/// the rank-one update.
pub(super) fn lu(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let a = b.ctx.op(op).operands()[0];
    let (out, pivots, info) = (bufs[0], bufs[1], bufs[2]);
    let shape = shape_of(b.ctx, a);
    let r = shape.len();
    let (m, n) = (shape[r - 2], shape[r - 1]);
    let batch = shape[..r - 2].to_vec();
    let stored = b.ctx.types.elem(b.ctx.value_ty(out));
    if is_real(b, stored) {
        // Real matrices: the runtime's blocked getrf (`linalg/lu.rs`).
        let desc = decomposition::matrices_desc(b, a)?;
        return decomposition::call(cx, b, op, bufs, &runtime::GETRF, &desc);
    }
    let elem = scalar::compute_type(b.ctx, stored);
    copy_elements(cx, b, a, out, &shape)?;
    let it = b.ctx.types.index_ty();
    let i32t = b.ctx.types.int_ty(32);
    let slot = b.ctx.types.memref_ty(&[], it);
    // The largest pivot magnitude so far: real, also for complex a.
    let magnitude = match b.ctx.types.kind(stored) {
        TypeKind::Complex(part) => *part,
        _ => stored,
    };
    let best_ty = b.ctx.types.memref_ty(&[], magnitude);
    let status_ty = b.ctx.types.memref_ty(&[], i32t);
    b.parallel_nest(&batch, &mut |b, bidx| {
        let at = |i: Value, j: Value| {
            let mut idx = bidx.to_vec();
            idx.extend([i, j]);
            idx
        };
        let (row, best, status) = (b.alloca(slot), b.alloca(best_ty), b.alloca(status_ty));
        let z32 = b.const_int(0, i32t);
        b.store(z32, status, &[]);
        b.for_range(0, m.min(n), &mut |b, j| {
            // The pivot row: the largest magnitude at or below row j.
            b.store(j, row, &[]);
            let d = load_scalar(b, out, &at(j, j));
            let ad = pivot_magnitude(b, d);
            store_scalar(b, Scalar::Real(ad), best, &[]);
            let one = b.const_index(1);
            let below = b.binary("arith.addi", j, one);
            b.for_values_from(below, m, &mut |b, i| {
                let v = load_scalar(b, out, &at(i, j));
                let av = pivot_magnitude(b, v);
                let cur = load_scalar(b, best, &[]).real();
                let larger = b.cmpf("ogt", av, cur);
                b.if_then(larger, &mut |b| {
                    store_scalar(b, Scalar::Real(av), best, &[]);
                    b.store(i, row, &[]);
                    Ok(())
                })
            })?;
            let p = b.load(row, &[]);
            let p32 = b.cast("arith.index_cast", p, i32t);
            let one32 = b.const_int(1, i32t);
            let p1 = b.binary("arith.addi", p32, one32);
            let mut pidx = bidx.to_vec();
            pidx.push(j);
            b.store(p1, pivots, &pidx);
            let pv = load_scalar(b, out, &at(p, j));
            let pv = pivot_magnitude(b, pv);
            let zero = b.zero(b.ty(pv));
            let nonzero = b.cmpf("une", pv, zero);
            b.if_else(
                nonzero,
                &mut |b| {
                    // Swap rows j and p, then scale the column below j.
                    b.for_range(0, n, &mut |b, k| {
                        let x = load_scalar(b, out, &at(j, k));
                        let y = load_scalar(b, out, &at(p, k));
                        store_scalar(b, y, out, &at(j, k));
                        store_scalar(b, x, out, &at(p, k));
                        Ok(())
                    })?;
                    let one = b.const_index(1);
                    let below = b.binary("arith.addi", j, one);
                    b.for_values_from(below, m, &mut |b, i| {
                        let x = load_scalar(b, out, &at(i, j));
                        let d = load_scalar(b, out, &at(j, j));
                        let q = scalar::emit(b, op, DIVIDE, &[x, d], elem, elem)?;
                        store_scalar(b, q, out, &at(i, j));
                        Ok(())
                    })
                },
                &mut |b| {
                    record_first_failure(b, status, None, j);
                    Ok(())
                },
            )?;
            // Trailing update: a(i, k) -= a(i, j) a(j, k).
            let one = b.const_index(1);
            let below = b.binary("arith.addi", j, one);
            b.for_values_from(below, m, &mut |b, i| {
                let lij = load_scalar(b, out, &at(i, j));
                let one = b.const_index(1);
                let right = b.binary("arith.addi", j, one);
                b.for_values_from(right, n, &mut |b, k| {
                    let ujk = load_scalar(b, out, &at(j, k));
                    let pr = scalar::emit(b, op, MULTIPLY, &[lij, ujk], elem, elem)?;
                    let x = load_scalar(b, out, &at(i, k));
                    let d = scalar::emit(b, op, SUBTRACT, &[x, pr], elem, elem)?;
                    store_scalar(b, d, out, &at(i, k));
                    Ok(())
                })
            })
        })?;
        let v = b.load(status, &[]);
        b.store(v, info, bidx);
        Ok(())
    })
}

/// Every element of `a` into `out` (same shape), in parallel: the
/// factorizations work in place on the copy.
fn copy_elements(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    a: Value,
    out: Value,
    shape: &[i64],
) -> Result<()> {
    b.parallel_nest(shape, &mut |b, idx| {
        let v = cx.element(b, a, idx)?;
        store_scalar(b, v, out, idx);
        Ok(())
    })
}

/// LAPACK's `info`: the 1-based column `j + 1` of the first failure, kept in
/// the i32 `status` slot (0 until then). `failed` (i1) guards the record;
/// `None` means the caller is already on the failing path.
fn record_first_failure(b: &mut Builder<'_>, status: Value, failed: Option<Value>, j: Value) {
    let i32t = b.ctx.types.int_ty(32);
    let first = b.load(status, &[]);
    let zero = b.const_int(0, i32t);
    let unset = b.cmpi("eq", first, zero);
    let record = match failed {
        Some(failed) => b.binary("arith.andi", failed, unset),
        None => unset,
    };
    let column = b.cast("arith.index_cast", j, i32t);
    let one = b.const_int(1, i32t);
    let order = b.binary("arith.addi", column, one);
    let next = b.select(record, order, first);
    b.store(next, status, &[]);
}

/// Whether `elem` is f32 or f64 (the runtime's blocked LU and Cholesky).
fn is_real(b: &Builder<'_>, elem: Type) -> bool {
    matches!(
        b.ctx.types.kind(elem),
        TypeKind::Float(strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)
    )
}
