//! One element as the lowering holds it ([`Scalar`]: a value, or a complex
//! number's two parts), and its moves: loaded from and stored to a buffer,
//! as the integer of all its bits, and a splat constant's element. The
//! bottom of the loop lowering: the op semantics (`scalar.rs`) and the
//! element emission (`elemental.rs`) build on it.

use strata_ir::{Context, FloatKind, Type, TypeKind, Value};

use crate::builder::Builder;

/// One element: a real scalar, or a complex number as (re, im).
#[derive(Copy, Clone, Debug)]
pub enum Scalar {
    Real(Value),
    Complex(Value, Value),
}

impl Scalar {
    pub fn real(self) -> Value {
        match self {
            Scalar::Real(v) | Scalar::Complex(v, _) => v,
        }
    }

    /// The zero of a buffer's element type, as `store_scalar` takes it.
    pub fn zero(b: &mut Builder<'_>, elem: Type) -> Scalar {
        match b.ctx.types.kind(elem).clone() {
            TypeKind::Complex(p) => Scalar::Complex(b.zero(p), b.zero(p)),
            _ if is_small_float(b.ctx, elem) => {
                let f64t = b.ctx.types.float_ty(FloatKind::F64);
                Scalar::Real(b.zero(f64t))
            }
            _ => Scalar::Real(b.zero(elem)),
        }
    }
}

/// Whether `t` is one of the f8/f6/f4 formats, which are stored as bytes
/// and computed on in f64.
pub fn is_small_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::Float(k) if strata_ir::minifloat::format(*k).is_some())
}

pub fn load_scalar(b: &mut Builder<'_>, mem: Value, idx: &[Value]) -> Scalar {
    let elem = b.ctx.types.elem(b.ty(mem));
    if b.ctx.types.is_complex(elem) {
        Scalar::Complex(b.load_part(mem, idx, 0), b.load_part(mem, idx, 1))
    } else if is_small_float(b.ctx, elem) {
        let v = b.load(mem, idx);
        let f64t = b.ctx.types.float_ty(strata_ir::FloatKind::F64);
        Scalar::Real(b.cast("arith.extf", v, f64t))
    } else {
        Scalar::Real(b.load(mem, idx))
    }
}

pub fn store_scalar(b: &mut Builder<'_>, s: Scalar, mem: Value, idx: &[Value]) {
    let elem = b.ctx.types.elem(b.ty(mem));
    match s {
        Scalar::Real(v) if is_small_float(b.ctx, elem) => {
            let n = b.cast("arith.truncf", v, elem);
            b.store(n, mem, idx)
        }
        Scalar::Real(v) => b.store(v, mem, idx),
        Scalar::Complex(re, im) => {
            b.store_part(re, mem, idx, 0);
            b.store_part(im, mem, idx, 1);
        }
    }
}

/// Bits of one element (both parts of a complex number).
pub fn total_bits(ctx: &Context, t: Type) -> u32 {
    ctx.types.bit_width(t) * if ctx.types.is_complex(t) { 2 } else { 1 }
}

/// The element as an integer of all its bits (complex: re in the low half).
pub fn to_bits(b: &mut Builder<'_>, s: Scalar, elem: Type) -> Value {
    let w = total_bits(b.ctx, elem);
    let it = b.ctx.types.int_ty(w);
    match s {
        Scalar::Complex(re, im) => {
            let pw = w / 2;
            let pt = b.ctx.types.int_ty(pw);
            let (r, i) = (
                b.cast("arith.bitcast", re, pt),
                b.cast("arith.bitcast", im, pt),
            );
            let (r, i) = (b.cast("arith.extui", r, it), b.cast("arith.extui", i, it));
            let sh = b.const_int(pw as i128, it);
            let hi = b.binary("arith.shli", i, sh);
            b.binary("arith.ori", r, hi)
        }
        Scalar::Real(v) if b.ctx.types.is_float(elem) => b.cast("arith.bitcast", v, it),
        Scalar::Real(v) if b.ty(v) == it => v,
        Scalar::Real(v) => b.cast("arith.bitcast", v, it),
    }
}

/// An integer holding all of an element's bits, as an element of `elem`.
pub fn from_bits(b: &mut Builder<'_>, bits: Value, elem: Type) -> Scalar {
    match b.ctx.types.kind(elem).clone() {
        TypeKind::Complex(p) => {
            let pw = b.ctx.types.bit_width(p);
            let pt = b.ctx.types.int_ty(pw);
            let lo = b.cast("arith.trunci", bits, pt);
            let sh = b.const_int(pw as i128, b.ty(bits));
            let hi = b.binary("arith.shrui", bits, sh);
            let hi = b.cast("arith.trunci", hi, pt);
            Scalar::Complex(
                b.cast("arith.bitcast", lo, p),
                b.cast("arith.bitcast", hi, p),
            )
        }
        TypeKind::Float(_) => Scalar::Real(b.cast("arith.bitcast", bits, elem)),
        _ if b.ty(bits) == elem => Scalar::Real(bits),
        _ => Scalar::Real(b.cast("arith.bitcast", bits, elem)),
    }
}

/// Element 0 of a splat constant, in its compute type.
pub fn constant_element(b: &mut Builder<'_>, d: &strata_ir::DenseElements, stored: Type) -> Scalar {
    let bits = strata_ir::dense::element_bits(b.ctx, d, 0);
    match b.ctx.types.kind(stored).clone() {
        TypeKind::Complex(p) => Scalar::Complex(b.const_bits(bits[0], p), b.const_bits(bits[1], p)),
        TypeKind::Float(k) if is_small_float(b.ctx, stored) => {
            let f64t = b.ctx.types.float_ty(strata_ir::FloatKind::F64);
            Scalar::Real(b.const_float(strata_ir::dense::bits_to_float(bits[0], k), f64t))
        }
        _ => Scalar::Real(b.const_bits(bits[0], stored)),
    }
}
